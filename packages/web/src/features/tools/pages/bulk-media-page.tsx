import { ToolPage } from "../components/tool-page";

export default function BulkMediaPage() {
  return <ToolPage id="bulkMedia" fields={["dispatchId", "numbers", "url", "message"]} advice={["blocks"]} />;
}
