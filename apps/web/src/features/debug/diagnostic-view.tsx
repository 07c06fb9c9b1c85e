import type { TConfigDiagnostic, TRepairResponse } from '@synchro/contracts';
import { DiagnosticSummary } from './diagnostic-summary.tsx';
import { ExtractionResults } from './extraction-card.tsx';
import { Issues } from './issues-card.tsx';
import { ParseError } from './parse-error-card.tsx';
import { RepairPanel } from './repair-panel.tsx';
import { RepairResult } from './repair-result.tsx';

export function DiagnosticView({
  diagnostic,
  repairResult,
  onRepaired,
}: {
  diagnostic: TConfigDiagnostic;
  repairResult: TRepairResponse | null;
  onRepaired: (result: TRepairResponse) => void;
}) {
  // Shown when the document is invalid, and also when it is valid but has faults the repair
  // handles (double escaping, encoding declaration…): the server answers "nothing to change"
  // (empty `changes`, no new version) when none of them can be fixed.
  const showRepair = diagnostic.hasXML && (!diagnostic.isValid || diagnostic.issues.length > 0);
  const showParseError =
    !diagnostic.isValid && (diagnostic.parseError !== null || diagnostic.problematicContent.length > 0);
  return (
    <div className="grid grid-cols-1 gap-6">
      <DiagnosticSummary diagnostic={diagnostic} />
      <RepairPanel showButton={showRepair} onRepaired={onRepaired} />
      {repairResult ? <RepairResult result={repairResult} /> : null}
      {showParseError ? <ParseError diagnostic={diagnostic} /> : null}
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-12">
        <Issues issues={diagnostic.issues} className="xl:col-span-5 xl:self-start" />
        <ExtractionResults results={diagnostic.extractionResults} className="xl:col-span-7" />
      </div>
    </div>
  );
}
