import { useState } from "react";

const KEY = "signOption";

function read(): boolean {
  try {
    const stored = localStorage.getItem(KEY);
    return stored === null ? true : JSON.parse(stored) !== false;
  } catch {
    return true;
  }
}

/** Spec §5: the Sign switch is on by default and kept in local storage under `signOption`. */
export function useSignOption(): [boolean, (value: boolean) => void] {
  const [sign, setSign] = useState(read);
  const update = (value: boolean) => {
    setSign(value);
    try {
      localStorage.setItem(KEY, JSON.stringify(value));
    } catch {
      // Private mode: the choice lasts until reload.
    }
  };
  return [sign, update];
}

/** The user's name in bold and a line break before the text (spec §5). */
export const signed = (name: string, text: string) => `*${name}*:\n${text}`;
