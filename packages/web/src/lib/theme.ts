import { createTheme } from "@mui/material/styles";

/** The one theme. Focus rings are made explicit because keyboard users must see where they are. */
export const theme = createTheme({
  palette: {
    primary: { main: "#2576d2" },
    secondary: { main: "#00a884" },
    background: { default: "#eef2f6" },
  },
  shape: { borderRadius: 8 },
  components: {
    MuiButtonBase: {
      styleOverrides: {
        root: {
          "&.Mui-focusVisible": { outline: "2px solid #f59e0b", outlineOffset: 2 },
        },
      },
    },
    MuiLink: {
      styleOverrides: { root: { "&:focus-visible": { outline: "2px solid #f59e0b", outlineOffset: 2 } } },
    },
  },
});
