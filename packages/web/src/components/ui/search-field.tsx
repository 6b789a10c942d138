import SearchIcon from "@mui/icons-material/Search";
import InputAdornment from "@mui/material/InputAdornment";
import TextField from "@mui/material/TextField";
import { isSearchTooShort } from "@zapdesk/core";
import { useTranslation } from "react-i18next";

/** `heavy`: a search the server refuses below SEARCH_MIN_LENGTH characters (issue 19); the field says so. */
export function SearchField({ value, onChange, heavy }: { value: string; onChange(value: string): void; heavy?: boolean }) {
  const { t } = useTranslation();
  const tooShort = heavy && isSearchTooShort(value);
  return (
    <TextField
      size="small"
      type="search"
      placeholder={t("common.search")}
      value={value}
      helperText={tooShort ? t("heavyReads.searchTooShort") : undefined}
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
