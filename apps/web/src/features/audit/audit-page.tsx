import { useId, useState } from 'react';
import { SearchX } from 'lucide-react';
import { AUDIT_KIND_KEYS, AUDIT_KINDS } from '@synchro/contracts';
import { FilterBar } from '../../components/history/filter-bar.tsx';
import { ListBody } from '../../components/history/list-body.tsx';
import { FIRST_PAGE, useListState } from '../../components/history/list-state.ts';
import { totalLabel } from '../../components/history/paging-bar.tsx';
import { TimeZoneNotice } from '../../components/history/time-zone-notice.tsx';
import { Label } from '../../components/ui/label.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { OptionsSelect } from '../../components/ui/select.tsx';
import { errorDetail } from '../../lib/api-client.ts';
import { formatNumber } from '../../lib/format.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { auditExportUrl, useAudit } from './audit-api.ts';
import { AuditTable } from './audit-table.tsx';

const TITLE = "Journal d'audit";
const ALL = 'tous';
const KIND_OPTIONS = [
  { value: ALL, label: 'Tous les types' },
  ...AUDIT_KIND_KEYS.map((k) => ({ value: k, label: AUDIT_KINDS[k] })),
];

export default function AuditPage() {
  usePageTitle(TITLE);
  const list = useListState();
  const [kind, setKind] = useState(ALL);
  const kindId = useId();
  const chosenKind = kind === ALL ? '' : kind;
  const query = useAudit(list.filters, chosenKind, list.position);
  const answer = query.data;
  const zone = answer?.displayTimeZone.zone ?? 'Europe/Paris';

  return (
    <>
      <PageHeader
        title={TITLE}
        description={
          <>
            Tout ce qui a changé quelque chose, ou essayé, pour cette installation : connexions,
            enregistrements, restaurations, synchronisations, exports, connecteur, administration.
            {answer
              ? ` Les événements sont conservés ${formatNumber(answer.retentionDays)}\u00a0jours.`
              : null}
          </>
        }
      />
      <TimeZoneNotice displayTimeZone={answer?.displayTimeZone} />
      <FilterBar
        filters={list.filters}
        searchLabel="Rechercher"
        searchPlaceholder="Action, adresse, section, enregistrement…"
        errorOnlyLabel="Échecs et refus uniquement"
        onDayChange={list.setDay}
        onSearch={list.setSearch}
        onErrorOnlyChange={list.setErrorOnly}
        exportHref={auditExportUrl(list.filters, chosenKind)}
        extra={
          <div className="grid max-w-xs gap-1.5">
            <Label htmlFor={kindId}>Type d’événement</Label>
            <OptionsSelect
              id={kindId}
              value={kind}
              options={KIND_OPTIONS}
              onValueChange={(v) => {
                setKind(v);
                list.goTo(FIRST_PAGE);
              }}
            />
          </div>
        }
      />
      <ListBody
        query={query}
        position={list.position}
        onNavigate={list.goTo}
        failure={(error) => ({
          title: 'Impossible de charger le journal d’audit',
          message: 'Le serveur n’a pas pu lire le journal. Réessayez.',
          technical: errorDetail(error, ''),
        })}
        loadingLabel="Chargement du journal d’audit…"
        empty={{ icon: SearchX, text: 'Aucun événement pour ces critères.' }}
        pageOf={(page) => ({
          rowCount: page.rows.length,
          paging: page.pagination,
          summary: `Affichage de ${formatNumber(page.rows.length)} sur ${totalLabel(page.pagination)} événements`,
        })}
      >
        {(page) => <AuditTable rows={page.rows} zone={zone} />}
      </ListBody>
    </>
  );
}
