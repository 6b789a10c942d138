import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QUEUE_PALETTE } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, fakeApi, signedInAs } from "../../../testing/fake-api";
import { fill, LANGUAGE_CASES, t } from "../../../testing/messages";
import { renderWithProviders } from "../../../testing/render";
import { QueueModal } from "./queue-modal";

async function openModal(lang: string, routes = {}) {
  await i18n.changeLanguage(lang);
  const server = fakeApi(routes);
  signedInAs(server, ADMIN);
  const user = userEvent.setup();
  await renderWithProviders(<QueueModal open queue={null} onClose={() => {}} />);
  await screen.findByRole("dialog");
  const submit = () => screen.getByRole("button", { name: t("queueModal.buttons.okAdd") });
  return { server, user, submit, name: () => screen.getByLabelText(t("queueModal.form.name")) };
}

/** A saved queue "Sales" (id 3) of this colour, as the API lists it. */
const storedQueue = (color: string) => ({
  id: 3,
  name: "Sales",
  color,
  greetingMessage: "",
  closingReason: "off" as const,
  schedule: null,
  createdAt: "",
  updatedAt: "",
});

describe("queue modal validation (spec §5)", () => {
  for (const c of LANGUAGE_CASES) {
    it(`shows every message in ${c.lang}`, async () => {
      const { user, submit, name } = await openModal(c.lang);
      await user.click(submit());
      expect(await screen.findAllByText(c.required)).toHaveLength(2); // name, colour

      await fill(user, name(), "a");
      await user.click(submit());
      expect(await screen.findByText(c.tooShort)).toBeInTheDocument();

      await fill(user, name(), "q".repeat(51));
      await user.click(submit());
      expect(await screen.findByText(c.tooLong)).toBeInTheDocument();
    });
  }

  it("offers the 50-colour palette as a keyboard radio group and saves the choice", async () => {
    const { server, user, submit, name } = await openModal("en", {
      "POST /api/queue": (req: { body: unknown }) => ({ body: { id: 1, createdAt: "", updatedAt: "", ...(req.body as object) } }),
    });
    const radios = screen.getAllByRole("radio");
    expect(radios).toHaveLength(50);
    expect(radios.map((r) => r.getAttribute("aria-label"))).toEqual(QUEUE_PALETTE.map((c) => `Colour ${c}`));
    await fill(user, name(), "Sales");
    await user.click(screen.getByRole("radio", { name: `Colour ${QUEUE_PALETTE[3]}` }));
    await user.keyboard("{ArrowRight}");
    expect(screen.getByRole("radio", { name: `Colour ${QUEUE_PALETTE[4]}` })).toHaveAttribute("aria-checked", "true");
    await user.click(submit());
    await waitFor(() => expect(server.callsTo("POST", "/api/queue")).toHaveLength(1));
    expect(server.calls.at(-1)?.body).toEqual({
      name: "Sales",
      color: QUEUE_PALETTE[4],
      greetingMessage: "",
      closingReason: "off",
    });
    expect(await screen.findByText("Queue saved successfully")).toBeInTheDocument();
  });

  it("translates a colour clash", async () => {
    const { user, submit, name } = await openModal("pt", {
      "POST /api/queue": { status: 409, body: { error: "ERR_QUEUE_COLOR_ALREADY_EXISTS" } },
    });
    await fill(user, name(), "Vendas");
    await user.click(screen.getByRole("radio", { name: `Cor ${QUEUE_PALETTE[0]}` }));
    await user.click(submit());
    expect(await screen.findByRole("alert")).toHaveTextContent("Esta cor já está em uso, escolha outra.");
  });

  it("shows the colours other queues hold as taken, named, and skips them with the arrow keys", async () => {
    const [own, held, next, after] = QUEUE_PALETTE;
    const other = { id: 7, name: "Vendas", color: held.toLowerCase() };
    const { user } = await openModal("pt", { "GET /api/queue": { body: [other] } });
    const taken = await screen.findByRole("radio", { name: `Cor ${held}, em uso na fila Vendas` });
    expect(taken).toHaveAttribute("aria-disabled", "true");
    expect(screen.getAllByRole("radio").filter((r) => r.getAttribute("aria-disabled") === "true")).toHaveLength(1);
    // With no colour chosen yet, the first free colour is where the keyboard enters the group.
    expect(screen.getByRole("radio", { name: `Cor ${own}` })).toHaveAttribute("tabindex", "0");
    await user.click(screen.getByRole("radio", { name: `Cor ${own}` }));
    await user.keyboard("{ArrowRight}");
    expect(screen.getByRole("radio", { name: `Cor ${next}` })).toHaveAttribute("aria-checked", "true");
    await user.keyboard("{ArrowLeft}");
    expect(screen.getByRole("radio", { name: `Cor ${own}` })).toHaveAttribute("aria-checked", "true");
    // A taken colour cannot be picked with the pointer either.
    await expect(user.click(taken)).rejects.toThrow(/pointer-events: none/);
    expect(taken).toHaveAttribute("aria-checked", "false");
    expect(screen.getByRole("radio", { name: `Cor ${after}` })).not.toHaveAttribute("aria-disabled");
  });

  it("keeps a queue's own colour selectable when it is edited", async () => {
    await i18n.changeLanguage("en");
    const queue = storedQueue(QUEUE_PALETTE[5]);
    const server = fakeApi({ "GET /api/queue": { body: [queue, { id: 4, name: "Billing", color: QUEUE_PALETTE[6] }] } });
    signedInAs(server, ADMIN);
    await renderWithProviders(<QueueModal open queue={queue} onClose={() => {}} />);
    await screen.findByRole("radio", { name: `Colour ${QUEUE_PALETTE[6]}, used by queue Billing` });
    const own = screen.getByRole("radio", { name: `Colour ${QUEUE_PALETTE[5]}` });
    expect(own).toHaveAttribute("aria-checked", "true");
    expect(own).not.toHaveAttribute("aria-disabled");
  });

  it("saves the automatic-assignment switch with Save, never on its click (issue 20 §2.4)", async () => {
    await i18n.changeLanguage("en");
    const queue = storedQueue(QUEUE_PALETTE[2]);
    const server = fakeApi({
      "GET /api/routing": { body: { queues: [{ queueId: 3, autoAssign: false }], users: [] } },
      "PUT /api/routing/queues/:id": (r: { body: unknown }) => ({ body: { queueId: 3, ...(r.body as object) } }),
      "PUT /api/queue/:id": (r: { body: unknown }) => ({ body: { ...queue, ...(r.body as object) } }),
    });
    signedInAs(server, ADMIN);
    const user = userEvent.setup();
    const closed: string[] = [];
    const { rerender } = await renderWithProviders(<QueueModal open queue={queue} onClose={() => closed.push("closed")} />);
    const toggle = await screen.findByRole("switch", { name: /Automatic assignment/i });
    await waitFor(() => expect(toggle).toBeEnabled());

    // A click changes the form, not the server; Cancel drops it.
    await user.click(toggle);
    expect(toggle).toBeChecked();
    await user.click(screen.getByRole("button", { name: t("queueModal.buttons.cancel") }));
    expect(closed).toEqual(["closed"]);
    expect(server.callsTo("PUT", "/api/routing/queues/3")).toHaveLength(0);

    // Opened again: the stored value; switched and saved, it goes with the queue.
    rerender(<QueueModal open={false} queue={queue} onClose={() => closed.push("closed")} />);
    rerender(<QueueModal open queue={queue} onClose={() => closed.push("closed")} />);
    const again = await screen.findByRole("switch", { name: /Automatic assignment/i });
    await waitFor(() => expect(again).not.toBeChecked());
    await user.click(again);
    expect(server.callsTo("PUT", "/api/routing/queues/3")).toHaveLength(0);
    await user.click(screen.getByRole("button", { name: t("queueModal.buttons.okEdit") }));
    await waitFor(() => expect(server.callsTo("PUT", "/api/routing/queues/3")).toHaveLength(1));
    expect(server.callsTo("PUT", "/api/routing/queues/3")[0].body).toEqual({ autoAssign: true });
    expect(server.callsTo("PUT", "/api/queue/3")).toHaveLength(1);
    await waitFor(() => expect(closed).toEqual(["closed", "closed"]));
  });
});
