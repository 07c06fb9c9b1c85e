import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TExternalLinksResponse } from '@synchro/contracts';
import { SECRET_PLACEHOLDER } from '@synchro/contracts/constants';
import { demoUser } from '../../test/fixtures.ts';
import { json, mockApi, renderApp, type Handler } from '../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const emptyLiaison = { Logiciel: '', Config: '', Utilisateur: '', MDP: '' };
const view: TExternalLinksResponse = {
  version: 4,
  data: {
    Dossier_Import: 'C:\\Echanges\\Import',
    Dossier_Export: 'C:\\Echanges\\Export',
    Liaisons: [
      { Logiciel: 'C:\\EBP\\Gescom.exe', Config: 'DEMO.cfg', Utilisateur: 'admin', MDP: SECRET_PLACEHOLDER },
      emptyLiaison,
      emptyLiaison,
      emptyLiaison,
    ],
  },
};

function show(extra: Record<string, Handler> = {}) {
  const fetchMock = mockApi({
    'GET /api/user': () => json(demoUser),
    'GET /api/config/external-links': () => json(view),
    ...extra,
  });
  renderApp('/external-links');
  return fetchMock;
}

const block = (name: string) => screen.findByRole('region', { name });

describe('Liaisons externes', () => {
  it('shows the folders and the four master-software blocks', async () => {
    show();
    expect(await screen.findByRole('heading', { name: 'Liaisons externes', level: 1 })).toBeVisible();
    expect(await screen.findByLabelText("Dossier d'import")).toHaveValue('C:\\Echanges\\Import');
    expect(screen.getByLabelText("Dossier d'export")).toHaveValue('C:\\Echanges\\Export');
    const one = await block('Logiciel maître 1');
    expect(within(one).getByLabelText('Logiciel maître')).toHaveValue('C:\\EBP\\Gescom.exe');
    expect(within(one).getByLabelText('Configuration maître')).toHaveValue('DEMO.cfg');
    expect(within(one).getByLabelText('Utilisateur logiciel')).toHaveValue('admin');
    expect(within(one).getByLabelText('Mot de passe')).toHaveAttribute('placeholder', SECRET_PLACEHOLDER);
    expect(await block('Logiciel maître 4')).toBeVisible();
  });

  it('saves the exact payload with If-Match and clears the unsaved flag', async () => {
    const user = userEvent.setup();
    const fetchMock = show({
      'POST /api/database/external-links': () =>
        json({ message: 'Les liaisons externes ont été mises à jour avec succès.', version: 5 }),
    });
    await user.clear(await screen.findByLabelText("Dossier d'export"));
    await user.type(screen.getByLabelText("Dossier d'export"), 'D:\\Export');
    const two = await block('Logiciel maître 2');
    await user.type(within(two).getByLabelText('Logiciel maître'), 'Sage');
    await user.type(within(two).getByLabelText('Mot de passe'), 'pw');
    expect(screen.getByText('Modifications non enregistrées')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Valider' }));

    expect(
      (
        await screen.findAllByText('Les liaisons externes ont été mises à jour avec succès.', { exact: true })
      )[0],
    ).toBeVisible();
    const [url, init] = fetchMock.mock.calls.find(([, i]) => i?.method === 'POST')!;
    expect(url).toBe('/api/database/external-links');
    expect((init!.headers as Record<string, string>)['If-Match']).toBe('"4"');
    expect(JSON.parse(String(init!.body))).toEqual({
      Dossier_Import: 'C:\\Echanges\\Import',
      Dossier_Export: 'D:\\Export',
      Liaisons: [
        {
          Logiciel: 'C:\\EBP\\Gescom.exe',
          Config: 'DEMO.cfg',
          Utilisateur: 'admin',
          MDP: SECRET_PLACEHOLDER,
        },
        { Logiciel: 'Sage', Config: '', Utilisateur: '', MDP: 'pw' },
        emptyLiaison,
        emptyLiaison,
      ],
    });
    await waitFor(() => expect(screen.queryByText('Modifications non enregistrées')).not.toBeInTheDocument());
  });

  it('says beside the password when the program or configuration it goes to changed', async () => {
    const user = userEvent.setup();
    show();
    const one = await block('Logiciel maître 1');
    expect(within(one).queryByText(/a changé/)).not.toBeInTheDocument();
    await user.type(within(one).getByLabelText('Configuration maître'), '2');
    expect(
      within(one).getByText(
        "Configuration maître a changé : saisissez à nouveau le mot de passe. Un mot de passe enregistré n'est jamais envoyé vers une autre destination.",
      ),
    ).toBeVisible();
    expect(within(one).getByLabelText('Mot de passe')).toHaveAttribute('aria-invalid', 'true');
    await user.click(within(one).getByRole('button', { name: /^Effacer/ }));
    expect(within(one).queryByText(/a changé/)).not.toBeInTheDocument();
  });

  it('shows the conflict message with a reload action', async () => {
    const user = userEvent.setup();
    const conflict = "La configuration a été modifiée depuis l'ouverture de cet écran.";
    show({ 'POST /api/database/external-links': () => json({ message: conflict, code: 'conflict' }, 409) });
    await user.type(await screen.findByLabelText("Dossier d'import"), 'X');
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    expect((await screen.findAllByText(conflict, { exact: true }))[0]).toBeVisible();
    expect(screen.getByRole('button', { name: 'Recharger' })).toBeVisible();
  });

  it('shows the default failure text', async () => {
    const user = userEvent.setup();
    show({ 'POST /api/database/external-links': () => new Response('', { status: 500, statusText: '' }) });
    await user.type(await screen.findByLabelText("Dossier d'import"), 'X');
    await user.click(screen.getByRole('button', { name: 'Valider' }));
    expect((await screen.findAllByText('Erreur de sauvegarde', { exact: true }))[0]).toBeVisible();
    expect(
      (await screen.findAllByText('Échec de la sauvegarde des liaisons externes', { exact: true }))[0],
    ).toBeVisible();
  });
});
