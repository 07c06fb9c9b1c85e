import { useRef, useState } from 'react';
import { Code, Mail, Plug } from 'lucide-react';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { FormCheckField, FormField, FormSection } from '../../components/ui/form.tsx';
import { Input, Textarea } from '../../components/ui/input.tsx';
import { ConfigSectionScreen } from '../../forms/config-section-screen.tsx';
import { SecretField } from '../../forms/secret-input.tsx';
import { SelectField } from '../../forms/select-field.tsx';
import { useConfigSection } from '../../forms/use-config-section.ts';
import { emailListProblem } from '@synchro/contracts';
import { useDriveControls } from './drive-link.tsx';
import { SentMails } from './sent-mails.tsx';
import { TestReportButton } from './test-report-button.tsx';
import {
  EMAIL_HINT,
  MAIL_RULES,
  driveOptions,
  toComplementForm,
  toComplementPayload,
  toComplementView,
  type ComplementForm,
} from './complement-form.ts';

type MailRapport = ComplementForm['mailRapport'];
type MailFlag = { [K in keyof MailRapport]: MailRapport[K] extends boolean ? K : never }[keyof MailRapport];

const NOTIFICATIONS: { key: MailFlag; label: string; hint: string }[] = [
  { key: 'notifErr', label: 'Notification Erreur', hint: MAIL_RULES.notifErr },
  { key: 'notifImp', label: 'Notification Import', hint: MAIL_RULES.notifImp },
  { key: 'notifInf', label: 'Notification Info', hint: MAIL_RULES.notifInf },
];

export default function ComplementPage() {
  const section = useConfigSection({
    section: 'complement',
    toForm: toComplementForm,
    toPayload: toComplementPayload,
    toView: toComplementView,
  });
  const { update } = section;
  const emailRef = useRef<HTMLInputElement>(null);
  const [showEmailError, setShowEmailError] = useState(false);

  const drive = useDriveControls(section.form?.driveType ?? 'none', section.dirty);
  const showInvalidEmail = () => {
    setShowEmailError(true);
    emailRef.current?.focus();
  };

  const setMail = (patch: Partial<MailRapport>) =>
    update((f) => ({ ...f, mailRapport: { ...f.mailRapport, ...patch } }));

  const validate = (form: ComplementForm) => {
    if (emailListProblem(form.mailRapport.mailDestinataire) === null) return true;
    showInvalidEmail();
    return false;
  };

  return (
    <ConfigSectionScreen
      title="Complément"
      description="Services complémentaires, rapport de synchronisation par email et script du connecteur."
      section={section}
      validate={validate}
    >
      {(form) => {
        const emailProblem = emailListProblem(form.mailRapport.mailDestinataire);
        return (
          <>
            <FormSection title="Services" icon={<Plug aria-hidden="true" />}>
              <SecretField
                label="Api de géocodage"
                secretLabel="Clé de l'API de géocodage"
                kind="key"
                value={form.googleApiKey}
                initial={section.query.data?.data.googleApiKey ?? ''}
                onChange={(googleApiKey) => update((f) => ({ ...f, googleApiKey }))}
              />
              <SelectField
                label="Drive pour la GED"
                aside={drive.aside}
                hint={drive.hint}
                value={form.driveType}
                onValueChange={(driveType) => update((f) => ({ ...f, driveType }))}
                options={driveOptions(form.driveType)}
              />
            </FormSection>

            <FormSection
              title="Rapport de synchronisation"
              description="Emails envoyés par la console à l’adresse ci-dessous, selon les cases cochées."
              icon={<Mail aria-hidden="true" />}
            >
              <FormCheckField
                label="Envoyer un rapport de synchro par mail"
                hint={MAIL_RULES.envoyerRapport}
                className="col-span-full"
              >
                {({ id, labelId, ...aria }) => (
                  <Checkbox
                    id={id}
                    aria-labelledby={labelId}
                    {...aria}
                    checked={form.mailRapport.envoyerRapport}
                    onCheckedChange={(checked) => setMail({ envoyerRapport: checked === true })}
                  />
                )}
              </FormCheckField>
              <FormField
                label="Notification par email"
                className="col-span-full @xl:max-w-2xl"
                hint={EMAIL_HINT}
                error={showEmailError && emailProblem ? emailProblem : undefined}
                aside={
                  <TestReportButton
                    address={form.mailRapport.mailDestinataire}
                    onInvalid={showInvalidEmail}
                  />
                }
              >
                {({ labelId: _l, ...control }) => (
                  <Input
                    ref={emailRef}
                    {...control}
                    type="email"
                    inputMode="email"
                    autoComplete="email"
                    spellCheck={false}
                    placeholder="nom@entreprise.fr"
                    value={form.mailRapport.mailDestinataire}
                    onChange={(e) => setMail({ mailDestinataire: e.target.value })}
                    onBlur={() => setShowEmailError(true)}
                  />
                )}
              </FormField>
              <fieldset className="col-span-full grid gap-3">
                <legend className="mb-3 text-sm font-medium">Notifications envoyées</legend>
                <div className="grid gap-x-8 gap-y-4 @3xl:grid-cols-3">
                  {NOTIFICATIONS.map(({ key, label, hint }) => (
                    <FormCheckField key={key} label={label} hint={hint}>
                      {({ id, labelId, ...aria }) => (
                        <Checkbox
                          id={id}
                          aria-labelledby={labelId}
                          {...aria}
                          checked={form.mailRapport[key]}
                          onCheckedChange={(checked) => setMail({ [key]: checked === true })}
                        />
                      )}
                    </FormCheckField>
                  ))}
                </div>
              </fieldset>
              <FormCheckField
                label="Globaliser les importations des saisies mobiles"
                hint="Import plus rapide mais moins précis : les saisies sont importées ensemble, et leurs journaux sont globalisés eux aussi."
                className="col-span-full border-t border-border pt-5"
              >
                {({ id, labelId, ...aria }) => (
                  <Checkbox
                    id={id}
                    aria-labelledby={labelId}
                    {...aria}
                    checked={form.mailRapport.globaliserEnregImport}
                    onCheckedChange={(checked) => setMail({ globaliserEnregImport: checked === true })}
                  />
                )}
              </FormCheckField>
            </FormSection>

            <SentMails />

            <FormSection
              title="Script du connecteur"
              description="Exécuté par le connecteur ; laissez vide si vous n'en avez pas besoin."
              icon={<Code aria-hidden="true" />}
              contentClassName="@xl:grid-cols-1"
            >
              <FormField label="Script complémentaire">
                {({ labelId: _l, ...control }) => (
                  <Textarea
                    {...control}
                    rows={10}
                    spellCheck={false}
                    autoCapitalize="off"
                    autoCorrect="off"
                    wrap="off"
                    className="min-h-0 resize-y font-mono text-[0.8125rem] leading-relaxed"
                    value={form.scriptComplementaire}
                    onChange={(e) => update((f) => ({ ...f, scriptComplementaire: e.target.value }))}
                  />
                )}
              </FormField>
            </FormSection>
          </>
        );
      }}
    </ConfigSectionScreen>
  );
}
