import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { renderWithProviders } from "../../../testing/render";
import { formatWait, WaitingCard } from "./waiting-card";

describe("waiting card", () => {
  it("formats a wait from seconds to days", () => {
    expect(formatWait(40_000)).toBe("40 s");
    expect(formatWait(22.5 * 60_000)).toBe("22 min");
    expect(formatWait(65 * 60_000)).toBe("1 h 05 min");
    expect(formatWait(51 * 3_600_000)).toBe("2 d 3 h");
  });

  it("shows the average and the counts, or a dash when nothing was answered", async () => {
    await i18n.changeLanguage("pt");
    const { unmount } = await renderWithProviders(
      <WaitingCard waiting={{ answered: 2, averageMs: 15 * 60_000, unanswered: 1 }} />,
    );
    expect(screen.getByRole("group", { name: "Espera média (horário comercial)" })).toBeInTheDocument();
    expect(screen.getByTestId("waiting-average")).toHaveTextContent("15 min");
    expect(screen.getByText("2 respondidos · 1 aguardando")).toBeInTheDocument();
    unmount();
    await renderWithProviders(<WaitingCard waiting={{ answered: 0, averageMs: null, unanswered: 0 }} />);
    expect(screen.getByTestId("waiting-average")).toHaveTextContent("—");
  });
});
