import PersonPinOutlined from "@mui/icons-material/PersonPinOutlined";
import ToggleButton from "@mui/material/ToggleButton";
import Tooltip from "@mui/material/Tooltip";
import { useTranslation } from "react-i18next";

/** Issue 23 §5: the ticket list's and the board's "my customers" (tickets of contacts the user owns). */
export function MyCustomersToggle({ value, onChange }: { value: boolean; onChange(next: boolean): void }) {
  const { t } = useTranslation();
  return (
    <Tooltip title={t("contactOwner.myCustomers")}>
      <ToggleButton
        size="small"
        value="myCustomers"
        selected={value}
        onChange={() => onChange(!value)}
        aria-label={t("contactOwner.myCustomers")}
        sx={{ p: 0.5 }}
      >
        <PersonPinOutlined fontSize="small" />
      </ToggleButton>
    </Tooltip>
  );
}
