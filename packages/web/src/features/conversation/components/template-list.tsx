import Chip from "@mui/material/Chip";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { Template } from "@zapdesk/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";

interface TemplateListProps {
  templates: Template[];
  onPick(template: Template): void;
  /** Whether the reader may refresh the list from Meta (the empty text says whom to ask otherwise). */
  canRefresh: boolean;
}

/** The approved templates by name, each with its language (one entry per name and language) and category. */
export function TemplateList({ templates, onPick, canRefresh }: TemplateListProps) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState("");
  const needle = filter.trim().toLowerCase();
  const shown = needle
    ? templates.filter((tpl) => tpl.name.toLowerCase().includes(needle) || tpl.bodyText.toLowerCase().includes(needle))
    : templates;
  if (templates.length === 0) {
    return (
      <Typography color="text.secondary">
        {t(canRefresh ? "conversation.templates.empty" : "conversation.templates.emptyAskAdmin")}
      </Typography>
    );
  }
  return (
    <>
      {templates.length > 5 && (
        <TextField
          size="small"
          fullWidth
          label={t("conversation.templates.filter")}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          sx={{ mb: 1 }}
        />
      )}
      <List dense aria-label={t("conversation.templates.list")} sx={{ maxHeight: 360, overflowY: "auto" }}>
        {shown.map((template) => (
          <ListItemButton
            key={`${template.name}:${template.language}`}
            onClick={() => onPick(template)}
            aria-label={t("conversation.templates.pick", { name: template.name, language: template.language })}
          >
            <ListItemText
              primary={template.name}
              secondary={template.bodyText}
              slotProps={{ secondary: { noWrap: true } }}
              sx={{ minWidth: 0 }}
            />
            <Chip size="small" label={template.language} sx={{ ml: 1 }} />
            <Chip size="small" variant="outlined" label={template.category.toLowerCase()} sx={{ ml: 0.5 }} />
          </ListItemButton>
        ))}
      </List>
    </>
  );
}
