import type userEvent from "@testing-library/user-event";
import i18n from "../lib/i18n";

/** Spec §5 messages as each language must show them (written out, not read from the resources under test). */
export const LANGUAGE_CASES = [
  { lang: "pt", required: "Obrigatório", tooShort: "Muito curto!", tooLong: "Muito longo!", invalidEmail: "Email inválido" },
  { lang: "en", required: "Required", tooShort: "Too Short!", tooLong: "Too Long!", invalidEmail: "Invalid email" },
  { lang: "es", required: "Obligatorio", tooShort: "¡Muy corto!", tooLong: "¡Muy largo!", invalidEmail: "Correo inválido" },
] as const;

export const t = (key: string) => i18n.t(key);

/** Replaces a field's text the way a user would (clear, then paste: typing 51 characters one by one is slow). */
export async function fill(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, text: string) {
  await user.clear(field);
  if (text) {
    await user.click(field);
    await user.paste(text);
  }
}
