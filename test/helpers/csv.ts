/**
 * Reads CSV as a spreadsheet would (RFC 4180: fields separated by commas, rows by CRLF, a field
 * in double quotes may hold commas, line breaks and doubled quotes), after a UTF-8 byte order
 * mark. Tests parse the exports back with it; it is stricter than needed nowhere.
 */
export function parseCsv(text: string): string[][] {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body.charAt(i);
    if (quoted) {
      if (c === '"' && body.charAt(i + 1) === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"' && field === '') {
      quoted = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && body.charAt(i + 1) === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else {
      field += c;
    }
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
