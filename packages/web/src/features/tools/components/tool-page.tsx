import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { PageContainer } from "../../../components/ui/page-container";
import { type ToolFieldName, ToolForm } from "./tool-form";

/** A tool screen made of one placeholder form. */
export function ToolPage({
  id,
  fields,
  advice,
  children,
}: {
  id: string;
  fields: ToolFieldName[];
  advice?: ("blocks" | "lowLimits")[];
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <PageContainer title={t(`tools.titles.${id}`)}>
      {children}
      <ToolForm id={id} fields={fields} advice={advice?.map((a) => t(`tools.advice.${a}`))} />
    </PageContainer>
  );
}
