import { memo, useId } from 'react';
import { Input, Textarea } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { AttachmentCard } from './attachment-card.tsx';
import type { OpenedRecord, RecordAttachment, RecordField, RecordGroup } from './record-document.ts';

export interface XmlFieldsProps {
  record: OpenedRecord;
  edits: ReadonlyMap<number, string>;
  /** Shows only the fields whose name or value holds this text (case ignored). */
  filter: string;
  onEdit: (index: number, value: string) => void;
  onDownload: (attachment: RecordAttachment) => void;
}

const FieldControl = memo(function FieldControl({
  field,
  value,
  edited,
  onEdit,
}: {
  field: RecordField;
  value: string;
  edited: boolean;
  onEdit: (index: number, value: string) => void;
}) {
  const id = useId();
  const Control = field.multiline ? Textarea : Input;
  return (
    <div className="grid min-w-0 content-start gap-1.5">
      <Label htmlFor={id} className="flex items-center gap-1.5 font-mono text-[0.8125rem] break-all">
        {field.name}
        {edited ? (
          <span className="rounded bg-warning-soft px-1.5 py-px font-sans text-[0.6875rem] font-semibold text-warning-soft-foreground">
            modifié
          </span>
        ) : null}
      </Label>
      <Control
        id={id}
        value={value}
        spellCheck={false}
        className={field.multiline ? 'min-h-20 font-mono text-[0.8125rem]' : 'h-9 font-mono text-[0.8125rem]'}
        onChange={(event) => onEdit(field.index, event.target.value)}
      />
    </div>
  );
});

function matches(field: RecordField, value: string, filter: string): boolean {
  return field.name.toLowerCase().includes(filter) || value.toLowerCase().includes(filter);
}

function GroupSection({ group, ...props }: XmlFieldsProps & { group: RecordGroup }) {
  const titleId = useId();
  const filter = props.filter.trim().toLowerCase();
  const valueOf = (field: RecordField) => props.edits.get(field.index) ?? field.value;
  const fields = filter ? group.fields.filter((f) => matches(f, valueOf(f), filter)) : group.fields;
  const attachments = filter ? [] : group.attachments;
  if (fields.length === 0 && attachments.length === 0) return null;
  return (
    <section aria-labelledby={titleId} className="grid gap-3">
      <h3
        id={titleId}
        className="sticky top-0 z-10 -mx-1 border-b border-border bg-card/95 px-1 py-2 text-sm font-semibold text-foreground backdrop-blur"
      >
        {group.title}
        <span className="ml-2 text-xs font-normal text-muted-foreground">
          {group.fields.length} champ{group.fields.length > 1 ? 's' : ''}
        </span>
      </h3>
      <div className="grid gap-x-5 gap-y-3 sm:grid-cols-2">
        {attachments.map((attachment) => (
          <AttachmentCard
            key={attachment.key}
            attachment={attachment}
            name={
              attachment.nameField === null
                ? ''
                : (props.edits.get(attachment.nameField) ??
                  props.record.fields[attachment.nameField]?.value ??
                  '')
            }
            onDownload={() => props.onDownload(attachment)}
          />
        ))}
        {fields.map((field) => (
          <FieldControl
            key={field.index}
            field={field}
            value={valueOf(field)}
            edited={props.edits.has(field.index)}
            onEdit={props.onEdit}
          />
        ))}
      </div>
    </section>
  );
}

/** The record's leaf fields grouped by parent element, each with its label (the element's name). */
export function XmlFields(props: XmlFieldsProps) {
  const filter = props.filter.trim().toLowerCase();
  const none =
    filter !== '' &&
    !props.record.fields.some((f) => matches(f, props.edits.get(f.index) ?? f.value, filter));
  if (none) {
    return (
      <p className="py-10 text-center text-sm text-muted-foreground">
        Aucun champ ne correspond au filtre «{'\u00a0'}
        {props.filter.trim()}
        {'\u00a0'}».
      </p>
    );
  }
  return (
    <div className="grid gap-6">
      {props.record.groups.map((group) => (
        <GroupSection key={group.key} group={group} {...props} />
      ))}
    </div>
  );
}
