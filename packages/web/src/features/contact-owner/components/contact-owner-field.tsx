import FormControl from "@mui/material/FormControl";
import InputLabel from "@mui/material/InputLabel";
import MenuItem from "@mui/material/MenuItem";
import Select from "@mui/material/Select";
import { can } from "@zapdesk/core";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { useAuth } from "../../../lib/auth";
import { usePeople, useSetContactOwner } from "../api/contact-owner-api";

const NONE = "none";

interface ContactOwnerFieldProps {
  contactId: number;
  contactName: string;
  /** The contact's owner (null: none; undefined: not known yet, shown as none). */
  ownerId: number | null | undefined;
  /** Narrow (a table row): no label, the contact's name in the accessible name. */
  dense?: boolean;
}

/**
 * Issue 23 §5: the contact's owner. Admins choose anyone or nobody; an agent takes an unowned
 * contact for themself or lets go of their own; another agent's customer shows its owner, read-only.
 */
export function ContactOwnerField({ contactId, contactName, ownerId, dense = false }: ContactOwnerFieldProps) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const labelId = useId();
  const { data: people = [] } = usePeople();
  const setOwner = useSetContactOwner();
  const owner = ownerId ?? null;
  const anyone = can(user, "contacts:setOwner");
  const someoneElses = owner !== null && owner !== user?.id;
  const options = anyone ? people : people.filter((p) => p.id === user?.id || p.id === owner);
  const label = dense ? t("contactOwner.ownerOf", { name: contactName }) : t("contactOwner.owner");
  const choose = (value: string) => {
    const userId = value === NONE ? null : Number(value);
    setOwner.mutate({ contactId, userId });
  };
  return (
    <FormControl size="small" sx={{ minWidth: dense ? 150 : 220 }} disabled={setOwner.isPending || (!anyone && someoneElses)}>
      {!dense && <InputLabel id={labelId}>{label}</InputLabel>}
      <Select
        labelId={dense ? undefined : labelId}
        label={dense ? undefined : label}
        value={owner === null ? NONE : String(owner)}
        onChange={(e) => choose(e.target.value)}
        inputProps={{ "aria-label": label }}
      >
        <MenuItem value={NONE}>{t("contactOwner.none")}</MenuItem>
        {options.map((p) => (
          <MenuItem key={p.id} value={String(p.id)}>
            {p.id === user?.id ? t("contactOwner.me", { name: p.name }) : p.name}
          </MenuItem>
        ))}
        {owner !== null && !options.some((p) => p.id === owner) && (
          <MenuItem value={String(owner)}>{t("contactOwner.unknown")}</MenuItem>
        )}
      </Select>
    </FormControl>
  );
}
