import FormControl from "@mui/material/FormControl";
import MenuItem from "@mui/material/MenuItem";
import Select from "@mui/material/Select";
import { can } from "@zapdesk/core";
import { useTranslation } from "react-i18next";
import { useAuth } from "../../../lib/auth";
import { type OwnerFilter as Filter, usePeople } from "../api/contact-owner-api";

const ALL = "all";

/** Issue 23 §5: the contacts page's owner filter (everyone's, mine, without an owner; admins: one agent's). */
export function OwnerFilter({ value, onChange }: { value: Filter; onChange(next: Filter): void }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { data: people = [] } = usePeople();
  const others = can(user, "contacts:setOwner") ? people.filter((p) => p.id !== user?.id) : [];
  return (
    <FormControl size="small" sx={{ minWidth: 170 }}>
      <Select
        value={value || ALL}
        onChange={(e) => onChange(e.target.value === ALL ? "" : (e.target.value as Filter))}
        inputProps={{ "aria-label": t("contactOwner.filter.label") }}
      >
        <MenuItem value={ALL}>{t("contactOwner.filter.all")}</MenuItem>
        <MenuItem value="me">{t("contactOwner.filter.mine")}</MenuItem>
        <MenuItem value="none">{t("contactOwner.filter.none")}</MenuItem>
        {others.map((p) => (
          <MenuItem key={p.id} value={String(p.id)}>
            {t("contactOwner.filter.of", { name: p.name })}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
