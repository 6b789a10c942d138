import TranslateIcon from "@mui/icons-material/Translate";
import IconButton from "@mui/material/IconButton";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LANGUAGES } from "../../lib/i18n";

const NAMES: Record<(typeof LANGUAGES)[number], string> = { pt: "Português", en: "English", es: "Español" };

export function LanguageSwitch({ color = "inherit" }: { color?: "inherit" | "primary" }) {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <IconButton
        color={color}
        aria-label={t("language.switch")}
        aria-haspopup="menu"
        aria-controls={anchor ? "language-menu" : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <TranslateIcon />
      </IconButton>
      <Menu id="language-menu" anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((language) => (
          <MenuItem
            key={language}
            lang={language}
            selected={i18n.resolvedLanguage === language}
            onClick={() => {
              i18n.changeLanguage(language);
              setAnchor(null);
            }}
          >
            {NAMES[language]}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
