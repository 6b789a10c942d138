import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, AGENT, fakeApi, signedInAs } from "../../../testing/fake-api";
import { aTicket } from "../../../testing/fixtures";
import { renderWithProviders } from "../../../testing/render";
import { ContactDrawer } from "./contact-drawer";

async function showDrawer(contact: Partial<ReturnType<typeof aTicket>["contact"]>, provider: "baileys" | "cloud") {
  await i18n.changeLanguage("en");
  signedInAs(fakeApi(), AGENT);
  const view = await renderWithProviders(
    <ContactDrawer
      open
      onClose={() => {}}
      onEdit={() => {}}
      provider={provider}
      contact={{ ...aTicket().contact, ...contact }}
    />,
  );
  return view;
}

describe("the contact drawer", () => {
  it("a phone number is a tel: link, and a QR connection's profile picture is shown", async () => {
    const view = await showDrawer({ profilePicUrl: "https://pps.whatsapp.net/maria.jpg" }, "baileys");
    expect(screen.getByRole("link", { name: "5511988887777" })).toHaveAttribute("href", "tel:5511988887777");
    expect(view.container.querySelector('img[src="https://pps.whatsapp.net/maria.jpg"]')).not.toBeNull();
  });

  it("a LID identity shows as a private number, with no link to dial", async () => {
    await showDrawer({ number: "184467440737095@lid" }, "baileys");
    expect(screen.getByText("Private number")).toBeInTheDocument();
    expect(screen.queryByRole("link")).toBeNull();
    expect(screen.queryByText(/184467440737095/)).toBeNull();
  });

  it("a Cloud API ticket shows no profile picture (the channel cannot fetch one)", async () => {
    const view = await showDrawer({ profilePicUrl: "https://pps.whatsapp.net/stale.jpg" }, "cloud");
    expect(view.container.querySelector("img")).toBeNull();
    expect(screen.getByText("M")).toBeInTheDocument();
  });

  it("offers an admin the customer's data (LGPD) of a person, never of a group", async () => {
    await i18n.changeLanguage("en");
    signedInAs(fakeApi(), ADMIN);
    const person = await renderWithProviders(
      <ContactDrawer open onClose={() => {}} onEdit={() => {}} contact={aTicket().contact} />,
    );
    expect(await screen.findByRole("button", { name: "Customer data (LGPD)" })).toBeInTheDocument();
    person.unmount();
    await renderWithProviders(<ContactDrawer open onClose={() => {}} onEdit={() => {}} isGroup contact={aTicket().contact} />);
    // The admin-only merge action shows once the session is known; the data action does not, for a group.
    expect(await screen.findByRole("button", { name: /Merge/ })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Customer data (LGPD)" })).toBeNull();
  });
});
