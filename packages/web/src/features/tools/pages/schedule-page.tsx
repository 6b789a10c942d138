import { ToolPage } from "../components/tool-page";

export default function SchedulePage() {
  return <ToolPage id="schedule" fields={["dispatchId", "numbers", "message", "scheduledAt"]} advice={["blocks"]} />;
}
