import {
  checkConfigurationPatchTask,
  checkRecordsTask,
  checkResultTask,
  checkTransactionsTask,
} from './features/connector/checked-batches.ts';
import { diagnoseTask, repairTask } from './features/debug/tasks.ts';
import { xmlSaveTask, xmlViewTask } from './features/import-history/record-xml-tasks.ts';
import { outcomeOf, pingTask, type OffloadTask } from './offload/task.ts';

/**
 * The entry of the worker threads (offload/pool.ts; bundled as dist/offload-worker.js): every task
 * a request may send off its thread, by name.
 */
const TASKS: readonly OffloadTask<never, unknown>[] = [
  pingTask,
  checkRecordsTask,
  checkTransactionsTask,
  checkResultTask,
  checkConfigurationPatchTask,
  xmlViewTask,
  xmlSaveTask,
  diagnoseTask,
  repairTask,
];

const byName = new Map(TASKS.map((task) => [task.name, task as OffloadTask<unknown, unknown>]));

export default function runTask({ task, input }: { task: string; input: unknown }) {
  const found = byName.get(task);
  if (!found) throw new Error(`tâche inconnue du fil de travail : ${task}`);
  return outcomeOf(found, input);
}
