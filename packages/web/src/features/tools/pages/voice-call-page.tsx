import { ToolPage } from "../components/tool-page";

export default function VoiceCallPage() {
  return <ToolPage id="voiceCall" fields={["sender", "numbers", "url"]} advice={["blocks"]} />;
}
