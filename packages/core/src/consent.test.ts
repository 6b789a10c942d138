import { describe, expect, it } from "vitest";
import { consentAnswerOf, DEFAULT_OPT_OUT_WORDS, foldWord, matchesWord, optOutTransitions } from "./consent.js";

describe("opt-out and consent words", () => {
  it("match a whole message whatever its case, accents, punctuation and spaces", () => {
    for (const body of ["SAIR", "sair", "Sáir!", "  parar. ", "PÁRAR", "Stop", "stop!!", "🛑 STOP"]) {
      expect(matchesWord(body, DEFAULT_OPT_OUT_WORDS), body).toBe(true);
    }
    for (const body of ["please stop sending", "sairei", "", "   ", "parar de receber?", "stopp"]) {
      expect(matchesWord(body, DEFAULT_OPT_OUT_WORDS), body).toBe(false);
    }
    expect(foldWord("  Não   ACEITO! ")).toBe("nao aceito");
  });

  it("check one message against each list as that list is now, the same message in a row included", () => {
    expect(matchesWord("Chega!", ["SAIR"])).toBe(false);
    expect(matchesWord("Chega!", ["SAIR", "chegá"])).toBe(true);
    expect(matchesWord("Chega!", [])).toBe(false);
    expect(matchesWord("sair", ["SAIR"])).toBe(true);
    expect(matchesWord("Chega!", ["SAIR"])).toBe(false);
  });

  it("read an answer to the consent question", () => {
    const config = { acceptWords: ["SIM", "Aceito"], declineWords: ["NÃO"] };
    expect(consentAnswerOf("sim!", config)).toBe("accepted");
    expect(consentAnswerOf("ACEITO", config)).toBe("accepted");
    expect(consentAnswerOf("nao", config)).toBe("declined");
    expect(consentAnswerOf("talvez", config)).toBeUndefined();
  });

  it("turn a customer's messages into opt-outs and opt-ins, in order", () => {
    const m = (body: string) => ({ body });
    const kinds = (optedOut: boolean, bodies: string[]) =>
      optOutTransitions(optedOut, bodies.map(m), DEFAULT_OPT_OUT_WORDS).map((c) => `${c.kind}:${c.message.body}`);
    expect(kinds(false, ["oi", "STOP", "stop", "ok"])).toEqual(["opted_out:STOP", "opted_in:ok"]);
    expect(kinds(true, ["SAIR"])).toEqual([]);
    expect(kinds(true, ["voltei", "parar"])).toEqual(["opted_in:voltei", "opted_out:parar"]);
    expect(kinds(false, ["oi"])).toEqual([]);
  });
});
