import { ToolPage } from "../components/tool-page";

export default function BulkMessagesPage() {
  return <ToolPage id="bulkMessages" fields={["dispatchId", "numbers", "message"]} advice={["blocks"]} />;
}
