import { zodResolver } from "@hookform/resolvers/zod";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type Template, type TemplateSendInput, templateSendSchema } from "@zapdesk/core";
import { useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormTextField } from "../../../components/ui/form-text-field";
import { componentText, fillVariables } from "../utils/template-text";
import { FormattedText } from "./formatted-text";

interface TemplateFormValues {
  name: string;
  language: string;
  bodyParams: string[];
  headerParams: string[];
}

function Preview({ template, values }: { template: Template; values: Pick<TemplateFormValues, "bodyParams" | "headerParams"> }) {
  const { t } = useTranslation();
  const header = fillVariables(componentText(template, "HEADER"), values.headerParams);
  const footer = componentText(template, "FOOTER");
  return (
    <Box component="section" aria-label={t("conversation.templates.preview")}>
      <Typography variant="subtitle2" gutterBottom>
        {t("conversation.templates.preview")}
      </Typography>
      <Paper variant="outlined" sx={{ p: 1.5, bgcolor: "bubble.mine", color: "bubble.text", whiteSpace: "pre-wrap" }}>
        {header && <Typography sx={{ fontWeight: 700 }}>{header}</Typography>}
        <Typography variant="body2" component="div">
          <FormattedText text={fillVariables(template.bodyText, values.bodyParams)} />
        </Typography>
        {footer && (
          <Typography variant="caption" color="text.secondary" component="p">
            {footer}
          </Typography>
        )}
      </Paper>
    </Box>
  );
}

/** The chosen template's variables, filled in a form (validated by core's schema), with a live preview. */
export function TemplateForm({
  template,
  sending,
  onSend,
  onBack,
}: {
  template: Template;
  sending: boolean;
  onSend(input: TemplateSendInput): Promise<unknown>;
  onBack(): void;
}) {
  const { t } = useTranslation();
  const { control, handleSubmit } = useForm<TemplateFormValues>({
    resolver: zodResolver(templateSendSchema) as never,
    defaultValues: {
      name: template.name,
      language: template.language,
      bodyParams: Array.from({ length: template.bodyVariables }, () => ""),
      headerParams: Array.from({ length: template.headerVariables }, () => ""),
    },
  });
  const [bodyParams, headerParams] = useWatch({ control, name: ["bodyParams", "headerParams"] });
  const submit = handleSubmit((values) => onSend(values).catch(() => undefined));
  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={2} aria-label={template.name}>
      <Typography variant="subtitle1">
        {t("conversation.templates.chosen", { name: template.name, language: template.language })}
      </Typography>
      {headerParams.map((_value, index) => (
        <FormTextField
          // The variables are positional: their index is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: positional template variables
          key={`header-${index}`}
          control={control}
          name={`headerParams.${index}`}
          label={t("conversation.templates.headerVariable", { n: `{{${index + 1}}}` })}
          size="small"
          fullWidth
        />
      ))}
      {bodyParams.map((_value, index) => (
        <FormTextField
          // biome-ignore lint/suspicious/noArrayIndexKey: positional template variables
          key={`body-${index}`}
          control={control}
          name={`bodyParams.${index}`}
          label={t("conversation.templates.bodyVariable", { n: `{{${index + 1}}}` })}
          size="small"
          fullWidth
          autoFocus={index === 0}
        />
      ))}
      <Preview template={template} values={{ bodyParams, headerParams }} />
      <Stack direction="row" spacing={1} sx={{ justifyContent: "flex-end" }}>
        <Button onClick={onBack} color="inherit" disabled={sending}>
          {t("conversation.templates.back")}
        </Button>
        <Button type="submit" variant="contained" disabled={sending}>
          {t("conversation.templates.send")}
        </Button>
      </Stack>
    </Stack>
  );
}
