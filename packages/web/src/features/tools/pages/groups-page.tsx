import Box from "@mui/material/Box";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { PageContainer } from "../../../components/ui/page-container";
import { type ToolFieldName, ToolForm } from "../components/tool-form";

const TABS: { id: string; fields: ToolFieldName[] }[] = [
  { id: "groupUpdate", fields: ["dispatchId", "groupId", "title", "message"] },
  { id: "groupCreate", fields: ["dispatchId", "title", "numbers"] },
  { id: "groupOpen", fields: ["dispatchId", "groupId"] },
  { id: "groupClose", fields: ["dispatchId", "groupId"] },
  { id: "groupMessage", fields: ["dispatchId", "groupId", "message"] },
  { id: "groupMembers", fields: ["dispatchId", "groupId", "message"] },
];

export default function GroupsPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState(0);
  const current = TABS[tab];
  return (
    <PageContainer title={t("tools.titles.groups")}>
      <Tabs
        value={tab}
        onChange={(_e, value: number) => setTab(value)}
        variant="scrollable"
        scrollButtons="auto"
        aria-label={t("tools.titles.groups")}
      >
        {TABS.map((item, index) => (
          <Tab
            key={item.id}
            label={t(`tools.forms.${item.id}`)}
            id={`groups-tab-${index}`}
            aria-controls={`groups-panel-${index}`}
          />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`groups-panel-${tab}`} aria-labelledby={`groups-tab-${tab}`} sx={{ pt: 2 }}>
        <ToolForm key={current.id} id={current.id} fields={current.fields} advice={[t("tools.advice.blocks")]} />
      </Box>
    </PageContainer>
  );
}
