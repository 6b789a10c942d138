import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import i18n from "../../../lib/i18n";
import { ADMIN, type FakeRequest, fakeApi, signedInAs } from "../../../testing/fake-api";
import { aConnection } from "../../../testing/fixtures";
import { fill } from "../../../testing/messages";
import { renderWithProviders } from "../../../testing/render";
import { ConnectionModal } from "./connection-modal";

const QUESTION_PT = "Como você avalia o nosso atendimento? Responda com um número de 1 a 5.";

async function openEdit(saved = aConnection({ id: 4, provider: "simulator", pacing: { minGapMs: 0, jitterMs: 0 } })) {
  await i18n.changeLanguage("pt");
  const server = fakeApi({
    "GET /api/whatsapp/:id": { body: saved },
    "PUT /api/whatsapp/:id": (request: FakeRequest) => ({ body: { ...saved, ...(request.body as object) } }),
  });
  signedInAs(server, ADMIN);
  const user = userEvent.setup();
  await renderWithProviders(<ConnectionModal open onClose={() => {}} connectionId={saved.id} />);
  await screen.findByDisplayValue(saved.name);
  const submit = () => screen.getByRole("button", { name: "Salvar" });
  const sent = () => server.callsTo("PUT", `/api/whatsapp/${saved.id}`);
  return { user, submit, sent };
}

afterEach(() => i18n.changeLanguage("pt"));

describe("the connection's satisfaction survey (issue 11, CSAT)", () => {
  it("switching it on suggests a question naming the scale and sends it with the window", async () => {
    const { user, submit, sent } = await openEdit();
    expect(screen.getByRole("group", { name: "Pesquisa de satisfação" })).toBeInTheDocument();
    expect(screen.queryByLabelText("Pergunta ao cliente")).toBeNull();
    await user.click(screen.getByRole("switch", { name: "Enviar pesquisa de satisfação ao finalizar o atendimento" }));
    expect(screen.getByLabelText("Pergunta ao cliente")).toHaveValue(QUESTION_PT);
    await fill(user, screen.getByLabelText("Prazo para responder (minutos)"), "120");
    await user.click(submit());
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0].body).toMatchObject({ ratingMessage: QUESTION_PT, ratingTimeoutMinutes: 120 });
  });

  it("refuses a window outside 5 minutes to 7 days before sending", async () => {
    const { user, submit, sent } = await openEdit();
    await user.click(screen.getByRole("switch", { name: "Enviar pesquisa de satisfação ao finalizar o atendimento" }));
    await fill(user, screen.getByLabelText("Prazo para responder (minutos)"), "20000");
    await user.click(submit());
    await waitFor(() => expect(screen.getByLabelText("Prazo para responder (minutos)")).toHaveAttribute("aria-invalid", "true"));
    expect(sent()).toHaveLength(0);
  });

  it("shows a saved survey, and switching it off clears the question", async () => {
    const saved = aConnection({ id: 9, provider: "simulator", ratingMessage: "Nota de 1 a 5?", ratingTimeoutMinutes: 60 });
    const { user, submit, sent } = await openEdit(saved);
    expect(screen.getByLabelText("Pergunta ao cliente")).toHaveValue("Nota de 1 a 5?");
    expect(screen.getByLabelText("Prazo para responder (minutos)")).toHaveValue(60);
    await user.click(screen.getByRole("switch", { name: "Enviar pesquisa de satisfação ao finalizar o atendimento" }));
    await user.click(submit());
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0].body).toMatchObject({ ratingMessage: "" });
    expect(sent()[0].body).not.toHaveProperty("ratingTimeoutMinutes");
  });
});
