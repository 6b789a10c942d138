import { ToolPage } from "../components/tool-page";

export default function InstaDirectPage() {
  return <ToolPage id="instaDirect" fields={["recipients", "message"]} advice={["blocks"]} />;
}
