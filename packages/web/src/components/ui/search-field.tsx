import SearchIcon from "@mui/icons-material/Search";
import InputAdornment from "@mui/material/InputAdornment";
import TextField from "@mui/material/TextField";
import { useTranslation } from "react-i18next";

export function SearchField({ value, onChange }: { value: string; onChange(value: string): void }) {
  const { t } = useTranslation();
  return (
    <TextField
      size="small"
      type="search"
      placeholder={t("common.search")}
      value={value}
      onChange={(e) => onChange(e.target.value.toLowerCase())}
      slotProps={{
        htmlInput: { "aria-label": t("common.search") },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon sx={{ color: "gray" }} />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
