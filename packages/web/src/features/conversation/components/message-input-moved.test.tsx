import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { renderWithProviders } from "../../../testing/render";
import { MessageInput } from "./message-input";

// Issue 12 item 21: a ticket transferred away while its chat is open stops taking messages and says why.
async function setup(user: { id: number; name: string } | null) {
  signedInAs(fakeApi(), AGENT);
  await renderWithProviders(
    <MessageInput ticket={{ id: 7, status: "open", user }} movedAway replyTo={null} onCancelReply={() => {}} />,
  );
}

describe("the composer of a ticket that moved away", () => {
  it("is closed, naming the agent the ticket went to", async () => {
    await setup({ id: 9, name: "Bob" });
    expect(await screen.findByRole("status")).toHaveTextContent("Este ticket foi transferido para Bob");
    expect(screen.queryByRole("textbox")).toBeNull();
    expect(screen.queryByTestId("composer")).toBeNull();
  });

  it("is closed with a plain notice when the ticket left for a queue or out of reach", async () => {
    await setup(null);
    expect(await screen.findByRole("status")).toHaveTextContent("Este ticket foi transferido e não está mais com você.");
    expect(screen.queryByRole("textbox")).toBeNull();
  });
});
