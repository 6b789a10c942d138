import { screen } from "@testing-library/react";
import type { Rule, RuleLog } from "@zapdesk/core";
import { describe, expect, it } from "vitest";
import { ADMIN, fakeApi, signedInAs } from "../../../testing/fake-api";
import { aRuleEvent } from "../../../testing/fixtures";
import { renderWithProviders } from "../../../testing/render";
import { RuleLogDialog } from "./rule-log-dialog";

const RULE: Rule = {
  id: 7,
  name: "Cancelamentos",
  enabled: true,
  trigger: "messageReceived",
  idleMinutes: null,
  conditions: [{ type: "messageText", op: "contains", value: "cancelar" }],
  actions: [{ type: "addNote", body: "Cancelamento" }],
  maxPerHour: 3,
  runAsId: 1,
  createdAt: "2026-12-01T10:00:00.000Z",
  updatedAt: "2026-12-01T10:00:00.000Z",
};

const LOG: RuleLog = {
  runs: [
    {
      id: 1,
      ruleId: 7,
      ticketId: 31,
      outcome: "done",
      event: aRuleEvent(),
      failedCondition: null,
      results: [{ index: 0, type: "addNote", outcome: "done" }],
      errorCode: null,
      errorMessage: null,
      createdAt: "2026-12-04T10:00:01.000Z",
    },
  ],
  count: 1,
  hasMore: false,
  notMet: {
    count: 1250,
    since: "2026-12-03T09:00:00.000Z",
    byCondition: [{ index: 0, count: 1250, lastAt: "2026-12-05T12:00:00.000Z" }],
  },
};

describe("the automation rule's log (issue 23 §1)", () => {
  it("lists the firings and shows the events whose conditions were not met as a count", async () => {
    const api = fakeApi({ "GET /api/automation-rules/7/log": { body: LOG } });
    signedInAs(api, ADMIN);
    await renderWithProviders(<RuleLogDialog rule={RULE} onClose={() => {}} />);
    const dialog = await screen.findByRole("dialog", { name: "Histórico: Cancelamentos" });
    expect(await screen.findByText(/quero cancelar/)).toBeInTheDocument();
    const notMet = await screen.findByTestId("rule-not-met");
    expect(notMet).toHaveTextContent("Condições não atendidas");
    expect(notMet).toHaveTextContent("1250 eventos");
    expect(notMet).toHaveTextContent("condição 1: 1250");
    expect(dialog).toContainElement(notMet);
  });
});
