import { describe, expect, it } from "vitest";
import { formatDay, formatHourMinute, formatTicketTime } from "./format-time";

describe("ticket row time (spec §2)", () => {
  const now = new Date(2026, 10, 22, 15, 30);

  it("shows HH:mm for a ticket updated today", () => {
    expect(formatTicketTime(new Date(2026, 10, 22, 9, 5).toISOString(), now)).toBe("09:05");
    expect(formatTicketTime(new Date(2026, 10, 22, 0, 0).toISOString(), now)).toBe("00:00");
  });

  it("shows dd/MM/yyyy for any other day, yesterday included", () => {
    expect(formatTicketTime(new Date(2026, 10, 21, 23, 59).toISOString(), now)).toBe("21/11/2026");
    expect(formatTicketTime(new Date(2025, 0, 3, 12, 0).toISOString(), now)).toBe("03/01/2025");
  });

  it("pads hours, minutes, days and months", () => {
    expect(formatHourMinute(new Date(2026, 0, 1, 7, 4))).toBe("07:04");
    expect(formatDay(new Date(2026, 0, 1, 7, 4))).toBe("01/01/2026");
  });
});
