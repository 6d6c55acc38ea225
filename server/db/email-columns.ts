import { getTableColumns } from "drizzle-orm";
import { emails } from "./schema.ts";

/**
 * Every column of emails but the three the database derives for its own queries: the search
 * vectors (lexemes with positions for up to 20,000 characters of body, which the database would
 * render as text and the driver parse for every row) and the list's analysis. No service reads
 * them back, so whole-row reads select these instead of select().
 */
function storedColumns() {
  const {
    search: _search,
    searchFields: _searchFields,
    listAnalysis: _listAnalysis,
    ...stored
  } = getTableColumns(emails);
  return stored;
}

export const storedEmailColumns = storedColumns();

/** An email row as services read it (storedEmailColumns). */
export type EmailRow = Omit<typeof emails.$inferSelect, "search" | "searchFields" | "listAnalysis">;
