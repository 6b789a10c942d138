import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import type { Contact } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { api } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";
import { useSetContactTags } from "../api/tags-api";
import { TagPicker } from "./tag-picker";

/** The contact drawer's tags: read from the contact itself (the ticket carries only its own tags). */
export function ContactTags({ contactId, name }: { contactId: number; name: string }) {
  const { t } = useTranslation();
  const { data: contact } = useQuery({
    queryKey: queryKeys.contacts.detail(contactId),
    queryFn: () => api.get<Contact>(`/contacts/${contactId}`),
  });
  const save = useSetContactTags();
  return (
    <Box sx={{ px: 2, pb: 1, display: "flex", flexDirection: "column", gap: 0.5 }}>
      <Typography variant="subtitle2">{t("tags.contactTags")}</Typography>
      <TagPicker
        value={contact?.tags ?? []}
        disabled={!contact || save.isPending}
        label={t("tags.picker.contactLabel", { name })}
        onChange={(tagIds) => save.mutate({ contactId, tagIds })}
      />
    </Box>
  );
}
