import { describe, expect, it } from "vitest";
import { type BusinessSchedule, businessMillisBetween, instantOfWall, isOpenAt, localDateOf } from "./business-hours.js";
import { queueInputSchema } from "./schemas/queues.js";

const H = 3_600_000;
const at = (iso: string) => new Date(iso);
const weekdays = (from: string, to: string) => [1, 2, 3, 4, 5].map((weekday) => ({ weekday, from, to }));

const office: BusinessSchedule = {
  timezone: "America/Sao_Paulo",
  days: [...weekdays("09:00", "12:00"), ...weekdays("13:00", "18:00")],
  outOfHoursMessage: "Fechado",
  holidays: [],
};

describe("isOpenAt", () => {
  it("a null schedule is always open", () => {
    expect(isOpenAt(null, at("2025-01-05T03:00:00Z"))).toBe(true);
    expect(businessMillisBetween(null, at("2025-01-05T00:00:00Z"), at("2025-01-06T00:00:00Z"))).toBe(24 * H);
  });

  it("a schedule without days is closed all week", () => {
    const closed = { ...office, days: [] };
    for (let day = 0; day < 7; day++) expect(isOpenAt(closed, new Date(Date.UTC(2025, 0, 5 + day, 15)))).toBe(false);
    expect(businessMillisBetween(closed, at("2025-01-01T00:00:00Z"), at("2025-02-01T00:00:00Z"))).toBe(0);
  });

  it("reads the wall clock of the schedule's time zone, from inclusive and to exclusive, with a lunch break", () => {
    // Monday 2025-01-06, São Paulo is UTC-3.
    expect(isOpenAt(office, at("2025-01-06T11:59:00Z"))).toBe(false); // 08:59
    expect(isOpenAt(office, at("2025-01-06T12:00:00Z"))).toBe(true); // 09:00
    expect(isOpenAt(office, at("2025-01-06T15:30:00Z"))).toBe(false); // 12:30 lunch
    expect(isOpenAt(office, at("2025-01-06T20:59:00Z"))).toBe(true); // 17:59
    expect(isOpenAt(office, at("2025-01-06T21:00:00Z"))).toBe(false); // 18:00
    expect(isOpenAt(office, at("2025-01-04T15:00:00Z"))).toBe(false); // Saturday
  });

  it("a holiday closes its whole local date", () => {
    const withHoliday = { ...office, holidays: [{ date: "2025-01-06", name: "Folga" }] };
    expect(isOpenAt(withHoliday, at("2025-01-06T15:00:00Z"))).toBe(false);
    expect(isOpenAt(withHoliday, at("2025-01-07T14:00:00Z"))).toBe(true);
    // 22:00 on 25 December in New York is already the 26th in UTC: still the holiday.
    const ny = { timezone: "America/New_York", days: [{ weekday: 3, from: "00:00", to: "24:00" }], outOfHoursMessage: "" };
    const christmas = { ...ny, holidays: [{ date: "2024-12-25" }] };
    expect(isOpenAt(ny, at("2024-12-26T03:00:00Z"))).toBe(true);
    expect(isOpenAt(christmas, at("2024-12-26T03:00:00Z"))).toBe(false);
  });

  it("a night shift is two intervals, the first ending at 24:00", () => {
    const night = {
      ...office,
      days: [
        { weekday: 1, from: "22:00", to: "24:00" },
        { weekday: 2, from: "00:00", to: "06:00" },
      ],
    };
    expect(isOpenAt(night, at("2025-01-07T02:30:00Z"))).toBe(true); // Mon 23:30
    expect(isOpenAt(night, at("2025-01-07T08:59:00Z"))).toBe(true); // Tue 05:59
    expect(isOpenAt(night, at("2025-01-07T09:00:00Z"))).toBe(false); // Tue 06:00
    expect(businessMillisBetween(night, at("2025-01-07T00:00:00Z"), at("2025-01-07T10:00:00Z"))).toBe(8 * H);
  });
});

describe("businessMillisBetween", () => {
  it("counts only open time across a weekend and a lunch break", () => {
    // Friday 17:00 → Monday 10:00 (local): one hour on Friday, one on Monday.
    expect(businessMillisBetween(office, at("2025-01-10T20:00:00Z"), at("2025-01-13T13:00:00Z"))).toBe(2 * H);
    // Monday 11:30 → 13:30: half an hour before lunch, half after.
    expect(businessMillisBetween(office, at("2025-01-13T14:30:00Z"), at("2025-01-13T16:30:00Z"))).toBe(H);
    // A whole week: 5 × 8 h.
    expect(businessMillisBetween(office, at("2025-01-05T03:00:00Z"), at("2025-01-12T03:00:00Z"))).toBe(40 * H);
  });

  it("skips holidays", () => {
    const withHoliday = { ...office, holidays: [{ date: "2025-01-13" }] };
    // Friday 17:00 → Tuesday 10:00 with Monday off.
    expect(businessMillisBetween(withHoliday, at("2025-01-10T20:00:00Z"), at("2025-01-14T13:00:00Z"))).toBe(2 * H);
  });

  it("is zero when the end is not later than the start", () => {
    expect(businessMillisBetween(office, at("2025-01-13T16:00:00Z"), at("2025-01-13T15:00:00Z"))).toBe(0);
    expect(businessMillisBetween(null, at("2025-01-13T16:00:00Z"), at("2025-01-13T16:00:00Z"))).toBe(0);
  });

  it("follows New York's DST changes (a 23-hour and a 25-hour Sunday)", () => {
    const sunday = { timezone: "America/New_York", days: [{ weekday: 0, from: "00:00", to: "06:00" }], outOfHoursMessage: "" };
    // 2024-03-10 02:00 → 03:00: six wall-clock hours are five real ones.
    expect(businessMillisBetween(sunday, at("2024-03-09T12:00:00Z"), at("2024-03-11T12:00:00Z"))).toBe(5 * H);
    expect(isOpenAt(sunday, at("2024-03-10T07:30:00Z"))).toBe(true); // 03:30 EDT
    expect(isOpenAt(sunday, at("2024-03-10T10:00:00Z"))).toBe(false); // 06:00 EDT
    // 2024-11-03 02:00 → 01:00: seven real hours.
    expect(businessMillisBetween(sunday, at("2024-11-02T12:00:00Z"), at("2024-11-04T12:00:00Z"))).toBe(7 * H);
    expect(isOpenAt(sunday, at("2024-11-03T06:30:00Z"))).toBe(true); // the second 01:30 (EST)
    expect(isOpenAt(sunday, at("2024-11-03T11:00:00Z"))).toBe(false); // 06:00 EST
  });

  it("follows São Paulo's historical DST, whose changes happened at midnight", () => {
    // 2018-11-04 (Sunday) 00:00 did not exist (clocks went to 01:00): 00:00–12:00 is 11 hours.
    const sunday = { timezone: "America/Sao_Paulo", days: [{ weekday: 0, from: "00:00", to: "12:00" }], outOfHoursMessage: "" };
    expect(businessMillisBetween(sunday, at("2018-11-03T12:00:00Z"), at("2018-11-05T12:00:00Z"))).toBe(11 * H);
    expect(instantOfWall(Date.UTC(2018, 10, 4, 0, 0), "America/Sao_Paulo")).toBe(Date.UTC(2018, 10, 4, 3, 0)); // 01:00 -02
    // 2019-02-16 (Saturday) 23:00–24:00 happened twice: 22:00–24:00 is 3 hours.
    const saturday = { ...sunday, days: [{ weekday: 6, from: "22:00", to: "24:00" }] };
    expect(businessMillisBetween(saturday, at("2019-02-16T12:00:00Z"), at("2019-02-17T12:00:00Z"))).toBe(3 * H);
    expect(isOpenAt(saturday, at("2019-02-17T02:30:00Z"))).toBe(true); // the second 23:30 (-03)
    expect(isOpenAt(saturday, at("2019-02-17T03:00:00Z"))).toBe(false); // Sunday 00:00
    expect(localDateOf(at("2019-02-17T02:30:00Z"), "America/Sao_Paulo")).toBe("2019-02-16");
  });
});

describe("queue schedule validation", () => {
  const base = { name: "Suporte", color: "#123456" };
  const schedule = { timezone: "America/Sao_Paulo", days: [{ weekday: 1, from: "09:00", to: "18:00" }], outOfHoursMessage: "x" };
  const parse = (value: unknown) => queueInputSchema.safeParse({ ...base, schedule: value });

  it("accepts a schedule, null, and no schedule (always open)", () => {
    expect(parse(schedule).success).toBe(true);
    expect(parse({ ...schedule, days: [], holidays: [{ date: "2025-12-25", name: "Natal" }] }).success).toBe(true);
    expect(parse({ ...schedule, days: [{ weekday: 5, from: "22:00", to: "24:00" }] }).success).toBe(true);
    expect(queueInputSchema.parse(base).schedule).toBeNull();
    expect(parse(null).data?.schedule).toBeNull();
    expect(parse(schedule).data?.schedule?.holidays).toEqual([]);
  });

  it.each([
    ["an unknown time zone", { ...schedule, timezone: "Mars/Olympus" }],
    ["a weekday out of range", { ...schedule, days: [{ weekday: 7, from: "09:00", to: "10:00" }] }],
    ["a malformed time", { ...schedule, days: [{ weekday: 1, from: "9:00", to: "10:00" }] }],
    ["24:00 as a start", { ...schedule, days: [{ weekday: 1, from: "24:00", to: "24:00" }] }],
    ["an end not after the start", { ...schedule, days: [{ weekday: 1, from: "18:00", to: "09:00" }] }],
    [
      "overlapping intervals",
      {
        ...schedule,
        days: [
          { weekday: 1, from: "09:00", to: "12:00" },
          { weekday: 1, from: "11:00", to: "13:00" },
        ],
      },
    ],
    ["an impossible holiday", { ...schedule, holidays: [{ date: "2025-02-30" }] }],
    ["a repeated holiday", { ...schedule, holidays: [{ date: "2025-12-25" }, { date: "2025-12-25" }] }],
    ["an unknown field", { ...schedule, extra: 1 }],
  ])("refuses %s", (_label, value) => {
    expect(parse(value).success).toBe(false);
  });
});
