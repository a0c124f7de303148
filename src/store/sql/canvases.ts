/**
 * The canvas records in SQL: the canvas columns of `digests` or of `conferences` (the same on
 * either table). Each step is one statement deciding on the row itself, so of several instances
 * exactly one creates a canvas or tells the creator about a problem.
 */
import type { CanvasProblem, CanvasWrite } from '../../model/canvas.ts';
import type { CanvasRecords } from '../canvases.ts';
import type { SqlRunner } from './executor.ts';

/** The tables whose rows keep a canvas. */
export type CanvasTable = 'digests' | 'conferences';

export class SqlCanvasRecords implements CanvasRecords {
  readonly #db: SqlRunner;
  readonly #table: CanvasTable;

  constructor(db: SqlRunner, table: CanvasTable) {
    this.#db = db;
    this.#table = table;
  }

  /**
   * Records a write: the canvas written (a new one replaces the old), or its problem, the
   * creation held until `holdUntil` when given.
   */
  async record(id: string, write: CanvasWrite, now: Date, holdUntil?: Date): Promise<void> {
    if (write.kind === 'written') {
      await this.#db.query(
        `UPDATE ${this.#table} SET canvas_id = $2, canvas_kind = $3, canvas_problem = NULL,
           canvas_creating_until = NULL, updated_at = $4
         WHERE id = $1`,
        [id, write.canvas.id, write.canvas.kind, now],
      );
      return;
    }
    await this.#db.query(
      `UPDATE ${this.#table} SET canvas_problem = $2, canvas_creating_until = $4, updated_at = $3
       WHERE id = $1`,
      [id, write.problem, now, holdUntil ?? null],
    );
  }

  /**
   * True for the one caller that may create the owner's canvas now: it has none recorded, and no
   * other caller holds its creation (or that hold ran out at `now`). Held until `until`.
   */
  async claimCreation(id: string, now: Date, until: Date): Promise<boolean> {
    const rows = await this.#db.query(
      `UPDATE ${this.#table} SET canvas_creating_until = $3
       WHERE id = $1 AND canvas_id IS NULL
         AND (canvas_creating_until IS NULL OR canvas_creating_until <= $2)
       RETURNING id`,
      [id, now, until],
    );
    return rows.length > 0;
  }

  /** True for the one caller that is first to tell the creator about `problem`. */
  async markTold(id: string, problem: CanvasProblem): Promise<boolean> {
    const rows = await this.#db.query(
      `UPDATE ${this.#table} SET canvas_told = CASE WHEN canvas_told IS NULL OR canvas_told = ''
           THEN $2 ELSE canvas_told || ' ' || $2 END
       WHERE id = $1 AND (' ' || COALESCE(canvas_told, '') || ' ') NOT LIKE $3
       RETURNING id`,
      [id, problem, `% ${problem} %`],
    );
    return rows.length > 0;
  }
}
