import { ToolPage } from "../components/tool-page";

export default function HistoryPage() {
  return <ToolPage id="history" fields={["dispatchId", "numbers", "limit"]} advice={["lowLimits"]} />;
}
