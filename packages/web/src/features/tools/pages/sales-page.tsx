import { EmbeddedPage } from "./embedded-page";

export default function SalesPage() {
  return <EmbeddedPage titleKey="tools.titles.sales" settingKey="salesPageUrl" />;
}
