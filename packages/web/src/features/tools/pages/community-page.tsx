import { EmbeddedPage } from "./embedded-page";

export default function CommunityPage() {
  return <EmbeddedPage titleKey="tools.titles.community" settingKey="communityPageUrl" />;
}
