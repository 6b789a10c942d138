import Skeleton from "@mui/material/Skeleton";
import TableCell from "@mui/material/TableCell";
import TableRow from "@mui/material/TableRow";

export function TableLoadingRow({ columns }: { columns: number }) {
  return (
    <TableRow aria-busy="true">
      {Array.from({ length: columns }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder cells have no identity
        <TableCell key={i}>
          <Skeleton animation="wave" />
        </TableCell>
      ))}
    </TableRow>
  );
}
