import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";

/**
 * A list edited row by row (a rule's conditions, a macro's or rule's actions): each row as
 * `renderRow` draws it, with the server's refusal of that row under it (`errors["<name>.<i>"]`),
 * the list's own refusal under the list (`errors[name]`), and a button that adds `blank()`.
 */
export function RowListEditor<T>({
  name,
  items,
  onChange,
  renderRow,
  errors,
  blank,
  addLabel,
}: {
  name: string;
  items: T[];
  onChange(items: T[]): void;
  renderRow(row: { item: T; index: number; change(next: T): void; remove(): void }): ReactNode;
  errors: Record<string, string>;
  blank(): T;
  addLabel: string;
}) {
  const error = (key: string) =>
    errors[key] && (
      <Typography variant="caption" color="error">
        {errors[key]}
      </Typography>
    );
  return (
    <>
      {items.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the rows are the list's positions (no ids of their own)
        <Stack key={index} spacing={0.5}>
          {renderRow({
            item,
            index,
            change: (next) => onChange(items.map((x, i) => (i === index ? next : x))),
            remove: () => onChange(items.filter((_, i) => i !== index)),
          })}
          {error(`${name}.${index}`)}
        </Stack>
      ))}
      {error(name)}
      <Button onClick={() => onChange([...items, blank()])} sx={{ alignSelf: "flex-start" }}>
        {addLabel}
      </Button>
    </>
  );
}
