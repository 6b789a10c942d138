import { ToolPage } from "../components/tool-page";

export default function SmsPage() {
  return <ToolPage id="sms" fields={["sender", "numbers", "message"]} advice={["blocks"]} />;
}
