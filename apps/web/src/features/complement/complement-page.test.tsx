import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  DRIVE_DISCONNECT_MESSAGES,
  isValidEmailList,
  type TComplementResponse,
  type TDriveStatus,
  type TOutboxList,
} from '@synchro/contracts';
import { SECRET_PLACEHOLDER } from '@synchro/contracts/constants';
import { demoUser } from '../../test/fixtures.ts';
import { json, mockApi, renderApp, type Handler } from '../../test/render-app.tsx';
import { EMAIL_ERROR, MAIL_RULES } from './complement-form.ts';
import { DISCONNECT_CONSEQUENCES } from './drive-link.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const view: TComplementResponse = {
  version: 12,
  data: {
    googleApiKey: SECRET_PLACEHOLDER,
    driveType: 'google',
    mailRapport: {
      envoyerRapport: true,
      mailDestinataire: 'admin@exemple.fr',
      notifErr: true,
      notifInf: false,
      notifImp: false,
      globaliserEnregImport: false,
    },
    scriptComplementaire: 'SET A=1\nSET B=2',
  },
};

const noDrive: TDriveStatus = { configured: { google: true, onedrive: false }, link: null };
/** A Google Drive link connected to ged@exemple.fr. */
const googleConnected: TDriveStatus = {
  configured: { google: true, onedrive: false },
  link: {
    provider: 'google',
    account: 'ged@exemple.fr',
    state: 'connected',
    connectedAt: '2026-03-02T09:00:00Z',
  },
};
const emptyOutbox: TOutboxList = {
  mails: [],
  relayConfigured: true,
  displayTimeZone: { zone: 'Europe/Paris', offsetMinutes: 60 },
};

function show(extra: Record<string, Handler> = {}) {
  const fetchMock = mockApi({
    'GET /api/user': () => json(demoUser),
    'GET /api/config/complement': () => json(view),
    'GET /api/drive': () => json(noDrive),
    'GET /api/mail/outbox': () => json(emptyOutbox),
    ...extra,
  });
  renderApp('/complement');
  return fetchMock;
}

const posts = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');

describe('Complément', () => {
  it('validates email addresses', () => {
    expect(isValidEmailList('')).toBe(true);
    expect(isValidEmailList('a@b.fr')).toBe(true);
    expect(isValidEmailList('a@b.fr; c.d@e-f.com')).toBe(true);
    expect(isValidEmailList('a@b')).toBe(false);
    expect(isValidEmailList('a b@c.fr')).toBe(false);
    expect(isValidEmailList('a@b.fr;')).toBe(false);
  });

  it('shows every field with its stored value', async () => {
    show();
    // The geocoding key is a secret: the server sends the placeholder, the field shows bullets.
    const key = await screen.findByLabelText('Api de géocodage');
    expect(key).toHaveValue('');
    expect(key).toHaveAttribute('placeholder', SECRET_PLACEHOLDER);
    expect(key).toHaveAttribute('type', 'password');
    expect(screen.getByText('Clé enregistrée : tapez-en une autre pour la remplacer.')).toBeVisible();
    expect(screen.getByRole('combobox', { name: /^Drive pour la GED/ })).toHaveTextContent('Google Drive');
    expect(screen.getByRole('checkbox', { name: 'Envoyer un rapport de synchro par mail' })).toBeChecked();
    expect(screen.getByLabelText('Notification par email')).toHaveValue('admin@exemple.fr');
    expect(screen.getByRole('checkbox', { name: 'Notification Erreur' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Notification Import' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Notification Info' })).not.toBeChecked();
    const globalise = screen.getByRole('checkbox', {
      name: 'Globaliser les importations des saisies mobiles',
    });
    expect(globalise).not.toBeChecked();
    expect(globalise).toHaveAccessibleDescription(/plus rapide mais moins précis/);
    const script = screen.getByLabelText('Script complémentaire');
    expect(script).toHaveValue('SET A=1\nSET B=2');
    expect(script).toHaveAttribute('rows', '10');
    expect(script).toHaveClass('font-mono');
    // Each box says what it sends.
    expect(screen.getByRole('checkbox', { name: 'Notification Erreur' })).toHaveAccessibleDescription(
      MAIL_RULES.notifErr,
    );
    expect(
      screen.getByRole('checkbox', { name: 'Envoyer un rapport de synchro par mail' }),
    ).toHaveAccessibleDescription(MAIL_RULES.envoyerRapport);
    expect(screen.getByRole('button', { name: 'Connecter' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Test rapport' })).toBeEnabled();
    expect(await screen.findByText('Non connecté.')).toBeVisible();
    expect(screen.getByText('Aucun email pour l’instant.')).toBeVisible();
    expect(screen.queryByText(/Bientôt disponible/)).not.toBeInTheDocument();
  });

  it('saves the exact payload with If-Match, then clears the unsaved flag', async () => {
    const user = userEvent.setup();
    const fetchMock = show({
      'POST /api/database/complement': () =>
        json({ message: 'Les paramètres complémentaires ont été mis à jour.', version: 13 }),
    });
    await user.click(await screen.findByRole('combobox', { name: /^Drive pour la GED/ }));
    await user.click(await screen.findByRole('option', { name: 'OneDrive' }));
    await user.click(screen.getByRole('checkbox', { name: 'Notification Info' }));
    await user.click(
      screen.getByRole('checkbox', { name: 'Globaliser les importations des saisies mobiles' }),
    );
    await user.type(screen.getByLabelText('Script complémentaire'), '{Enter}SET C=3');
    expect(screen.getByText('Modifications non enregistrées')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Valider' }));

    expect(
      (await screen.findAllByText('Les paramètres complémentaires ont été mis à jour.', { exact: true }))[0],
    ).toBeVisible();
    const [[url, init]] = posts(fetchMock) as [[string, RequestInit]];
    expect(url).toBe('/api/database/complement');
    expect((init.headers as Record<string, string>)['If-Match']).toBe('"12"');
    expect(JSON.parse(String(init.body))).toEqual({
      googleApiKey: SECRET_PLACEHOLDER,
      driveType: 'onedrive',
      mailRapport: {
        envoyerRapport: true,
        mailDestinataire: 'admin@exemple.fr',
        notifErr: true,
        notifInf: true,
        notifImp: false,
        globaliserEnregImport: true,
      },
      scriptComplementaire: 'SET A=1\nSET B=2\nSET C=3',
    });
    await waitFor(() => expect(screen.queryByText('Modifications non enregistrées')).not.toBeInTheDocument());
  });

  it("offers the three drives in order; 'Pas de Drive' is saved as driveType 'none'", async () => {
    const user = userEvent.setup();
    const fetchMock = show({
      'POST /api/database/complement': () =>
        json({ message: 'Les paramètres complémentaires ont été mis à jour.', version: 13 }),
    });
    await user.click(await screen.findByRole('combobox', { name: /^Drive pour la GED/ }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'Pas de Drive',
      'Google Drive',
      'OneDrive',
    ]);
    await user.click(screen.getByRole('option', { name: 'Pas de Drive' }));
    expect(screen.getByRole('combobox', { name: /^Drive pour la GED/ })).toHaveTextContent('Pas de Drive');
    await user.click(screen.getByRole('button', { name: 'Valider' }));

    await waitFor(() => expect(posts(fetchMock)).toHaveLength(1));
    const [[url, init]] = posts(fetchMock) as [[string, RequestInit]];
    expect(url).toBe('/api/database/complement');
    expect(JSON.parse(String(init.body))).toMatchObject({ driveType: 'none' });
  });

  it('does not save while the email address is invalid, and says why at the field', async () => {
    const user = userEvent.setup();
    const fetchMock = show({ 'POST /api/database/complement': () => json({ message: 'ok', version: 13 }) });
    const email = await screen.findByLabelText('Notification par email');
    await user.clear(email);
    await user.type(email, 'admin@exemple');
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    expect(email).toHaveFocus();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription(expect.stringContaining(EMAIL_ERROR));
    expect(posts(fetchMock)).toHaveLength(0);

    await user.type(email, '.fr');
    expect(email).not.toHaveAttribute('aria-invalid');
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    await waitFor(() => expect(posts(fetchMock)).toHaveLength(1));
  });

  it('shows the conflict message, and the default text of other failures', async () => {
    const user = userEvent.setup();
    let status = 409;
    show({
      'POST /api/database/complement': () =>
        status === 409
          ? json({ message: 'Configuration modifiée entre-temps.', code: 'conflict' }, 409)
          : new Response('', { status, statusText: '' }),
    });
    await user.type(await screen.findByLabelText('Api de géocodage'), 'X');
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    expect(
      (await screen.findAllByText('Configuration modifiée entre-temps.', { exact: true }))[0],
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Recharger' })).toBeVisible();
    status = 500;
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    expect(
      (await screen.findAllByText('Échec de la sauvegarde des compléments', { exact: true }))[0],
    ).toBeVisible();
  });
});

describe('Complément: the geocoding key', () => {
  it('a typed key is sent, then shown as stored; « Effacer » sends ""', async () => {
    const user = userEvent.setup();
    const fetchMock = show({
      'POST /api/database/complement': () =>
        json({ message: 'Les paramètres complémentaires ont été mis à jour.', version: 13 }),
    });
    await user.type(await screen.findByLabelText('Api de géocodage'), 'AIza-neuve');
    expect(screen.getByText('La nouvelle clé remplacera celle enregistrée.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    await waitFor(() => expect(posts(fetchMock)).toHaveLength(1));
    const body = (i: number) => JSON.parse(String((posts(fetchMock)[i]?.[1] as RequestInit).body));
    expect(body(0).googleApiKey).toBe('AIza-neuve');
    // After the save the key is shown as stored (placeholder), never as typed.
    await waitFor(() => expect(screen.getByLabelText('Api de géocodage')).toHaveValue(''));
    expect(screen.getByLabelText('Api de géocodage')).toHaveAttribute('placeholder', SECRET_PLACEHOLDER);
    await user.click(screen.getByRole('button', { name: /^Effacer/ }));
    expect(screen.getByText('La clé enregistrée sera supprimée à la validation.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    await waitFor(() => expect(posts(fetchMock)).toHaveLength(2));
    expect(body(1).googleApiKey).toBe('');
  });
});

describe('Complément: « Test rapport »', () => {
  it('sends the address of the field (saved or not) and says what happened', async () => {
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    let answer = { outcome: 'sent', message: 'Rapport de test envoyé à typed@exemple.fr', mailId: '7' };
    show({
      'POST /api/mail/test-report': (init) => {
        bodies.push(JSON.parse(String(init.body)));
        return json(answer);
      },
    });
    const email = await screen.findByLabelText('Notification par email');
    await user.clear(email);
    await user.type(email, 'typed@exemple.fr');
    await user.click(screen.getByRole('button', { name: 'Test rapport' }));
    expect(
      (await screen.findAllByText('Rapport de test envoyé à typed@exemple.fr', { exact: true }))[0],
    ).toBeVisible();
    expect(bodies).toEqual([{ mailDestinataire: 'typed@exemple.fr' }]);

    answer = {
      outcome: 'not-configured',
      message: 'Aucun serveur d’envoi configuré (SMTP_URL)',
      mailId: '8',
    };
    await user.click(screen.getByRole('button', { name: 'Test rapport' }));
    expect(
      (await screen.findAllByText('Aucun serveur d’envoi configuré (SMTP_URL)', { exact: true }))[0],
    ).toBeVisible();
  });

  it('an invalid address is shown at the field and nothing is sent', async () => {
    const user = userEvent.setup();
    const fetchMock = show({ 'POST /api/mail/test-report': () => json({}) });
    const email = await screen.findByLabelText('Notification par email');
    await user.clear(email);
    await user.type(email, 'pas-une-adresse');
    await user.click(screen.getByRole('button', { name: 'Test rapport' }));
    expect(email).toHaveFocus();
    expect(email).toHaveAccessibleDescription(expect.stringContaining(EMAIL_ERROR));
    expect(posts(fetchMock)).toHaveLength(0);
  });
});

describe('Complément: the drive link', () => {
  it('connected: « Connecté : compte … » and « Déconnecter »', async () => {
    const user = userEvent.setup();
    const fetchMock = show({
      'GET /api/drive': () => json(googleConnected),
      'POST /api/drive/disconnect': () => json({ ...noDrive, grantKept: false }),
    });
    expect(await screen.findByText('Connecté : compte ged@exemple.fr (Google Drive)')).toBeVisible();
    // Asked first; « Annuler » leaves the link as it is.
    await user.click(screen.getByRole('button', { name: 'Déconnecter' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Déconnecter le Drive\u202f?' });
    expect(dialog).toHaveAccessibleDescription(DISCONNECT_CONSEQUENCES);
    await user.click(within(dialog).getByRole('button', { name: 'Annuler' }));
    expect(posts(fetchMock)).toEqual([]);
    expect(screen.getByText('Connecté : compte ged@exemple.fr (Google Drive)')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Déconnecter' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Déconnecter le Drive\u202f?' });
    await user.click(within(dialog).getByRole('button', { name: 'Déconnecter' }));
    expect((await screen.findAllByText('Drive déconnecté.', { exact: true }))[0]).toBeVisible();
    expect(await screen.findByRole('button', { name: 'Connecter' })).toBeVisible();
  });

  it('« Déconnecter » whose revocation failed at the provider says the grant may live on, and where to remove it', async () => {
    const user = userEvent.setup();
    show({
      'GET /api/drive': () => json(googleConnected),
      'POST /api/drive/disconnect': () => json({ ...noDrive, grantKept: true }),
    });
    await user.click(await screen.findByRole('button', { name: 'Déconnecter' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Déconnecter le Drive\u202f?' });
    await user.click(within(dialog).getByRole('button', { name: 'Déconnecter' }));
    expect(
      (await screen.findAllByText(DRIVE_DISCONNECT_MESSAGES.grantKept, { exact: true }))[0],
    ).toBeVisible();
    expect(screen.queryByText('Drive déconnecté.', { exact: true })).not.toBeInTheDocument();
    expect(await screen.findByText('Non connecté.')).toBeVisible();
  });

  it('a link the provider revoked: « Déconnecter » clears it (keyboard), « Connecter » links again', async () => {
    const user = userEvent.setup();
    const revoked: TDriveStatus = {
      configured: { google: true, onedrive: false },
      link: {
        provider: 'google',
        account: 'ged@exemple.fr',
        state: 'revoked',
        connectedAt: '2026-03-02T09:00:00Z',
      },
    };
    const fetchMock = show({
      'GET /api/drive': () => json(revoked),
      'POST /api/drive/disconnect': () => json({ ...noDrive, grantKept: false }),
    });
    expect(
      await screen.findByText(
        'Connexion révoquée par Google Drive : connectez de nouveau le Drive, ou déconnectez-le.',
      ),
    ).toBeVisible();
    expect(screen.getByRole('combobox', { name: /^Drive pour la GED/ })).toHaveAccessibleDescription(
      /Connexion révoquée par Google Drive/,
    );
    expect(screen.getByRole('button', { name: 'Connecter' })).toBeEnabled();
    const disconnect = screen.getByRole('button', { name: 'Déconnecter' });
    disconnect.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('alertdialog', { name: 'Déconnecter le Drive\u202f?' });
    expect(within(dialog).getByRole('button', { name: 'Annuler' })).toHaveFocus();
    await user.keyboard('{Tab}{Enter}');
    expect((await screen.findAllByText('Drive déconnecté.', { exact: true }))[0]).toBeVisible();
    expect(posts(fetchMock).map(([url]) => url)).toEqual(['/api/drive/disconnect']);
    expect(await screen.findByText('Non connecté.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Déconnecter' })).not.toBeInTheDocument();
  });

  it('a link of another type than the chosen one is shown as that type’s, with « Connecter » and « Déconnecter »', async () => {
    const user = userEvent.setup();
    const onOneDrive: TDriveStatus = {
      configured: { google: true, onedrive: true },
      link: {
        provider: 'onedrive',
        account: 'ged@exemple.fr',
        state: 'connected',
        connectedAt: '2026-03-02T09:00:00Z',
      },
    };
    show({ 'GET /api/drive': () => json(onOneDrive) });
    // The configuration chooses Google Drive; the link is OneDrive's.
    expect(
      await screen.findByText(
        'Lien enregistré pour OneDrive (compte ged@exemple.fr), qui n’est pas le Drive choisi : connectez Google Drive, ou déconnectez OneDrive.',
      ),
    ).toBeVisible();
    expect(screen.queryByText(/^Connecté/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connecter' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Déconnecter' })).toBeEnabled();

    // Choosing the linked type shows it connected; « Pas de Drive » shows it as kept.
    const select = screen.getByRole('combobox', { name: /^Drive pour la GED/ });
    await user.click(select);
    await user.click(await screen.findByRole('option', { name: 'OneDrive' }));
    expect(await screen.findByText('Connecté : compte ged@exemple.fr (OneDrive)')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Connecter' })).not.toBeInTheDocument();
    await user.click(select);
    await user.click(await screen.findByRole('option', { name: 'Pas de Drive' }));
    expect(
      await screen.findByText(
        'Lien enregistré pour OneDrive (compte ged@exemple.fr), qui n’est pas le Drive choisi : déconnectez-le s’il ne sert plus.',
      ),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Déconnecter' })).toBeEnabled();
  });

  it('back from the provider with the previous grant still alive: « Drive connecté », and what to do', async () => {
    window.history.replaceState(null, '', '/complement?drive=connected-previous-kept');
    show();
    expect(
      (
        await screen.findAllByText(
          "Drive connecté. L’autorisation précédente n’a pas pu être révoquée chez son fournisseur : retirez l’accès de la console depuis le compte concerné (détails dans « Journal d'audit »).",
          { exact: true },
        )
      )[0],
    ).toBeVisible();
  });

  it('a provider this server cannot connect: the button says why', async () => {
    const user = userEvent.setup();
    const fetchMock = show({
      'GET /api/drive': () => json({ ...noDrive, configured: { google: false, onedrive: false } }),
    });
    expect(await screen.findByText('Connexion au Drive non configurée sur ce serveur')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Connecter' }));
    expect(
      (await screen.findAllByText('Connexion au Drive non configurée sur ce serveur', { exact: true }))
        .length,
    ).toBeGreaterThan(1);
    expect(posts(fetchMock)).toHaveLength(0);
  });
});

describe('Complément: « Emails envoyés »', () => {
  it('lists the emails with their state, and shows one as it was sent', async () => {
    const user = userEvent.setup();
    const mail = {
      id: '3',
      kind: 'test' as const,
      state: 'unconfigured' as const,
      recipients: 'admin@exemple.fr',
      subject: 'Rapport de test DEMOA001',
      createdAt: '2026-03-02T09:00:00Z',
      dueAt: '2026-03-02T09:00:00Z',
      sentAt: null,
      attempts: 1,
      lastError: 'Non envoyé : aucun serveur d’envoi configuré (SMTP_URL).',
    };
    show({
      'GET /api/mail/outbox': () => json({ ...emptyOutbox, relayConfigured: false, mails: [mail] }),
      'GET /api/mail/outbox/3': () => json({ ...mail, text: 'Rapport de test\n', html: '<p>Rapport</p>' }),
    });
    expect(await screen.findByText('Rapport de test DEMOA001')).toBeVisible();
    // Text matchers see U+00A0 as a space (the DOM text is normalised, the matcher is not).
    expect(screen.getByText('Non envoyé : aucun serveur d’envoi configuré')).toBeVisible();
    expect(screen.getByText('Aucun serveur d’envoi configuré')).toBeVisible();
    await user.click(screen.getByRole('button', { name: /^Voir l’email Rapport de test DEMOA001/ }));
    const frame = await screen.findByTitle('Aperçu de l’email');
    expect(frame).toHaveAttribute('sandbox', 'allow-same-origin');
    expect(frame).toHaveAttribute('srcdoc', '<p>Rapport</p>');
  });
});
