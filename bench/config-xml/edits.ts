/**
 * The section edits timed by the benchmark, with payloads built once from the fixture's own views
 * (the server receives the payload ready; reading it is not part of the edit).
 */
import * as engine from '@synchro/config-xml';

export interface TSectionEdit {
  label: string;
  /** The edit on a document already parsed (its parse is the parseConfig row of the bench). */
  run: (doc: engine.ConfigDocument) => string;
}

export function sectionEdits(fixture: string): TSectionEdit[] {
  const doc = engine.parseConfig(fixture);
  const sources = engine.readSources(doc).sources.map((source, i) => ({
    Provider: source.Provider,
    Serveur: i === 0 ? `${source.Serveur}-bench` : source.Serveur,
    Nom_BDD: source.Nom_BDD,
    Lecture_Seule: source.Lecture_Seule,
    Utilisateur: source.Utilisateur,
    // A server that changes takes a new password: the engine refuses to send the stored one
    // elsewhere (refuseMovedSecrets), as the screen asks the user to type it again.
    MDP: i === 0 ? 'Nouveau-mot-de-passe-bench' : source.MDP,
  }));
  const first = engine.readTerminals(doc).terminals[0];
  if (first === undefined) throw new Error('The fixture has no terminal');
  const terminal = {
    Nom: first.Nom,
    ID_Tablette: first.ID_Tablette,
    ID_Smartphone: first.ID_Smartphone,
    technicienId: first.technicienId,
    depotId: first.depotId,
    commerciaux: first.commerciaux.map((c) => ({ IDInterne: c.IDInterne, Libelle: c.Libelle })),
    authorizations: first.authorizations.map((a, i) => ({
      ID: a.ID,
      Autorise: i === 0 ? (a.Autorise === 1 ? 0 : 1) : a.Autorise,
      Libelle: a.Libelle,
    })),
  };
  // The connector's PATCH: the contract's example, with the document's own Data sent back with one
  // more employee (computed once per document, in the warm-up run).
  const connectorPatch = {
    Info: { VersionConnecteur: '6.19.4', DateMAJConfig: '20251114093300664', NuxiAutomateInstall: '1' },
    DerSynchro: {
      DateHeure: '20251114080952542',
      TypeDeSync: 'IncrÃ©mentale',
      Duree: '00:01:02',
      NbEnreg: '42',
    },
    Sources: [{ index: 1, Status: '0', StatusLibelle: 'Cnx 1 : Ã©chec' }],
  };
  const newData = new Map<engine.ConfigDocument, string>();
  const dataOf = (doc: engine.ConfigDocument): string => {
    let data = newData.get(doc);
    if (data === undefined) {
      const stored = doc.sectionText('Data') ?? '<Data></Data>';
      data = stored.replace(/<\/Data>$/, '  <SALARIE><IDInterne>bench</IDInterne></SALARIE>\r\n  </Data>');
      newData.set(doc, data);
    }
    return data;
  };
  return [
    { label: 'editSources (one server changed)', run: (doc) => engine.editSources(doc, { sources }) },
    {
      label: 'editTerminal (first terminal, one authorisation flipped)',
      run: (doc) => engine.editTerminal(doc, first.xmlIndex, terminal),
    },
    {
      label: 'editConnectorParts (Info, DerSynchro, a source status)',
      run: (doc) => engine.editConnectorParts(doc, connectorPatch),
    },
    {
      label: 'editConnectorParts (the same, and a whole new Data)',
      run: (doc) => engine.editConnectorParts(doc, { ...connectorPatch, Data: dataOf(doc) }),
    },
  ];
}
