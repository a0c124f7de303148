/**
 * What the database keeps about the channel canvas of a digest or a conference (the same columns
 * on either table): the canvas the app created for it, the last write's problem and the problems
 * its creator was told about. Each step decides on the row itself, so of several instances
 * exactly one creates a canvas, and exactly one tells the creator about a problem.
 */
import type { CanvasProblem, CanvasWrite } from '../model/canvas.ts';

/** The canvas records of one kind of owner (digests, or conferences), by the owner's id. */
export interface CanvasRecords {
  /**
   * Records a canvas write: the canvas written (which replaces the one recorded) and no problem,
   * or the write's problem (the canvas recorded stays). With `holdUntil` (a refusal of the
   * workspace's plan), the canvas is held until then: its creation is not claimed, and the owner's
   * canvas reads `heldUntil`; without it, the next run may write it.
   */
  record(id: string, write: CanvasWrite, now: Date, holdUntil?: Date): Promise<void>;
  /**
   * Takes the creation of the owner's canvas until `until`, so that of runners writing it at once
   * (a scheduled run beside Run now, two instances) only one creates it; true for that one. False
   * once a canvas is recorded, or while another runner holds it. `record` releases it.
   */
  claimCreation(id: string, now: Date, until: Date): Promise<boolean>;
  /**
   * Marks `problem` told to the owner's creator; true for the one caller that marked it, so the
   * creator is told once per problem however many instances meet it.
   */
  markTold(id: string, problem: CanvasProblem): Promise<boolean>;
}

export interface CanvasRepository {
  readonly digests: CanvasRecords;
  readonly conferences: CanvasRecords;
}
