import {
  checkConfigurationPatchTask,
  checkRecordsTask,
  checkResultTask,
  checkTransactionsTask,
  streamRecordsTask,
  streamTransactionsTask,
} from './features/connector/checked-batches.ts';
import { diagnoseTask, repairTask } from './features/debug/tasks.ts';
import { xmlSaveTask, xmlViewTask } from './features/import-history/record-xml-tasks.ts';
import { Piscina } from 'piscina';
import { parseConfigTask } from './domain/config-parse-task.ts';
import { versionChangesTask } from './domain/version-changes.ts';
import { connectorEditTask } from './features/connector/configuration-tasks.ts';
import { sectionEditTask } from './features/configuration/edit-task.ts';
import { outcomeOf, pingTask, type OffloadTask } from './offload/task.ts';
import { yieldCoresToRequests } from './offload/thread-priority.ts';

/**
 * The entry of the worker threads (offload/pool.ts; bundled as dist/offload-worker.js): every task
 * a request may send off its thread, by name.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tasks of every input and output, by name
const TASKS: readonly OffloadTask<any, any>[] = [
  pingTask,
  checkRecordsTask,
  checkTransactionsTask,
  streamRecordsTask,
  streamTransactionsTask,
  checkResultTask,
  checkConfigurationPatchTask,
  xmlViewTask,
  xmlSaveTask,
  diagnoseTask,
  repairTask,
  parseConfigTask,
  connectorEditTask,
  sectionEditTask,
  versionChangesTask,
];

yieldCoresToRequests();

const byName = new Map(TASKS.map((task) => [task.name, task as OffloadTask<unknown, unknown>]));

export default function runTask({ task, input }: { task: string; input: unknown }) {
  const found = byName.get(task);
  if (!found) throw new Error(`tâche inconnue du fil de travail : ${task}`);
  const outcome = outcomeOf(found, input);
  const transfer = outcome.ok && found.transferOut ? found.transferOut(outcome.value) : [];
  if (transfer.length === 0) return outcome;
  // Moved to the request thread, not copied (piscina's Transferable).
  return Piscina.move({ [Piscina.transferableSymbol]: transfer, [Piscina.valueSymbol]: outcome } as never);
}
