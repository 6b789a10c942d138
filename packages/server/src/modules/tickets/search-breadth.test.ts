import { describe, expect, it } from "vitest";
import { messageShare, type SearchStats, searchWords, walkIsCheaper, walkVisitLimit } from "./search-breadth.js";

// The bench's data set at scale 1 (bench/generate.ts), as ANALYZE described it: 500k messages in
// 50k tickets; "pedido" in 12% of them, "entrega" in 10%, "reembolso" (the probe word) in 1%.
const bench: SearchStats = {
  lexemes: ["pedido", "pedidos", "entrega", "reembolso", "de", "o"],
  shares: [0.11, 0.004, 0.1, 0.0097, 0.35, 0.6],
  present: 1,
  messages: 500_000,
  tickets: 50_000,
};
const WANTED = 1001;

describe("a search's breadth", () => {
  it("reads the words as the database's search query does", () => {
    expect(searchWords("  Pedido  ENTREGA\tçá ")).toEqual(["pedido", "entrega", "ca"]);
    expect(searchWords("& | !! d'água e-mail")).toEqual(["d", "agua", "e", "mail"]);
    expect(searchWords("")).toEqual([]);
  });

  it("estimates a word's share as the planner does: a prefix sums its lexemes, words multiply", () => {
    expect(messageShare("pedido", bench)).toBeCloseTo(0.114);
    expect(messageShare("ped", bench)).toBeCloseTo(0.114);
    expect(messageShare("PEDIDO entrega", bench)).toBeCloseTo(0.0114);
    expect(messageShare("pedido pedido", bench)).toBeCloseTo(0.114);
    // Not among the most common lexemes: rarer than all of them.
    expect(messageShare("boleto", bench)).toBe(0);
    expect(messageShare("pedido boleto", bench)).toBe(0);
    expect(messageShare("!!", bench)).toBe(0);
    // Only the messages with words at all.
    expect(messageShare("pedido", { ...bench, present: 0.5 })).toBeCloseTo(0.057);
  });

  it("walks for a word in most tickets, collects a rarer one", () => {
    const walks = (search: string, stats = bench) => walkIsCheaper(messageShare(search, stats), stats, WANTED);
    expect(walks("pedido")).toBe(true);
    expect(walks("entrega")).toBe(true);
    expect(walks("o")).toBe(true);
    expect(walks("reembolso")).toBe(false);
    expect(walks("pedido entrega")).toBe(false);
    expect(walks("boleto")).toBe(false);
    // A small database: collecting is cheap whatever the word.
    const small = { ...bench, messages: 800, tickets: 100 };
    expect(walks("reembolso", small)).toBe(false);
    // Nothing analyzed or counted yet: never a walk.
    expect(walks("pedido", { ...bench, tickets: 0 })).toBe(false);
    expect(walks("pedido", { ...bench, messages: 0 })).toBe(false);
  });

  it("lets a walk visit as many tickets as collecting would read messages for, more than it expects to", () => {
    // "pedido": 57,000 messages collected; a walk reads about 8.8 a ticket (1 / share, under 10).
    const share = messageShare("pedido", bench);
    expect(walkVisitLimit(share, bench)).toBe(Math.ceil((share * 500_000) / (1 / share)));
    expect(walkVisitLimit(share, bench)).toBeGreaterThan(6_000);
    // It expects to find the count's cap after about 1,430 tickets (70% of them have the word).
    expect(WANTED / (1 - (1 - share) ** 10)).toBeLessThan(walkVisitLimit(share, bench) / 4);
    // A word in most messages: a ticket's first message mostly has it, so the limit is past every ticket.
    expect(walkVisitLimit(messageShare("o", bench), bench)).toBeGreaterThan(bench.tickets);
  });

  it("walks further for a later page: the walk stops at the count's cap or the page asked for", () => {
    const share = messageShare("entrega", bench);
    expect(walkIsCheaper(share, bench, WANTED)).toBe(true);
    expect(walkIsCheaper(share, bench, 40_001)).toBe(false);
  });
});
