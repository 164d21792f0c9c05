import type { ReactNode } from "react";
import { TableHead, TableHeader, TableRow } from "./table";

/** One column heading of a {@link TableHeadRow}: its text, or the text with a class or a tooltip. */
export type TableColumn = ReactNode | { label: ReactNode; className?: string; title?: string };

function isColumnObject(column: TableColumn): column is { label: ReactNode; className?: string; title?: string } {
  return typeof column === "object" && column !== null && "label" in column;
}

/**
 * The header of a {@link Table} from its column headings, with `actions` adding the last,
 * visually empty column of row buttons (named "Actions" for screen readers).
 */
export function TableHeadRow({ columns, actions = false }: { columns: TableColumn[]; actions?: boolean }) {
  return (
    <TableHeader>
      <TableRow>
        {columns.map((column, index) =>
          isColumnObject(column) ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed and ordered.
            <TableHead key={index} className={column.className} title={column.title}>
              {column.label}
            </TableHead>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed and ordered.
            <TableHead key={index}>{column}</TableHead>
          ),
        )}
        {actions && (
          <TableHead>
            <span className="sr-only">Actions</span>
          </TableHead>
        )}
      </TableRow>
    </TableHeader>
  );
}
