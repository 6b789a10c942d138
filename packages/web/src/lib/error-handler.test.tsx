import { act, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Toaster } from "../components/ui/toaster";
import { fakeApi } from "../testing/fake-api";
import { api } from "./api-client";
import { toastError } from "./error-handler";
import i18n from "./i18n";

async function failWith(status: number, body: unknown) {
  fakeApi({ "GET /api/thing": { status, body } });
  const error = await api.get("/thing").catch((e: unknown) => e);
  act(() => toastError(error));
}

describe("generic error handler (spec §8)", () => {
  const cases = [
    { lang: "pt", text: "Já existe um contato com este número." },
    { lang: "en", text: "A contact with this number already exists." },
    { lang: "es", text: "Ya existe un contacto con este número." },
  ];
  for (const { lang, text } of cases) {
    it(`translates a known code in ${lang}`, async () => {
      await i18n.changeLanguage(lang);
      render(<Toaster />);
      await failWith(409, { error: "ERR_DUPLICATED_CONTACT", message: "raw server text" });
      expect(await screen.findByRole("alert")).toHaveTextContent(text);
      expect(screen.queryByText("raw server text")).not.toBeInTheDocument();
    });
  }

  it("shows one toast per code however often it happens", async () => {
    await i18n.changeLanguage("en");
    render(<Toaster />);
    await failWith(409, { error: "ERR_OTHER_OPEN_TICKET" });
    await failWith(409, { error: "ERR_OTHER_OPEN_TICKET" });
    await failWith(400, { error: "ERR_WAPP_GREETING_REQUIRED" });
    expect(screen.getAllByText("There is already an open ticket for this contact.")).toHaveLength(1);
    expect(screen.getByText("A greeting message is required when there is more than one queue.")).toBeInTheDocument();
  });

  it("falls back to the server's message for an unknown code", async () => {
    render(<Toaster />);
    await failWith(418, { error: "ERR_TEAPOT", message: "I am a teapot" });
    expect(await screen.findByRole("alert")).toHaveTextContent("I am a teapot");
  });

  it("falls back to the error field when there is no message", async () => {
    render(<Toaster />);
    await failWith(418, { error: "ERR_TEAPOT" });
    expect(await screen.findByRole("alert")).toHaveTextContent("ERR_TEAPOT");
  });

  it("says 'An error occurred!' when nothing is known", async () => {
    await i18n.changeLanguage("en");
    render(<Toaster />);
    act(() => toastError(new Error("network down")));
    expect(await screen.findByRole("alert")).toHaveTextContent("An error occurred!");
  });

  it("auto-closes toasts after 3000 ms", async () => {
    const { vi } = await import("vitest");
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => toastError(new Error("x")));
    expect(screen.getByRole("alert")).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(2900));
    expect(screen.getByRole("alert")).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});
