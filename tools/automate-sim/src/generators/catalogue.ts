/** The simulated ERP's data: customers, articles, people and texts the records draw from. */

export interface Customer {
  code: string;
  name: string;
  address: string;
  postcode: string;
  city: string;
  phone: string;
  contact: string;
  mail: string;
}

export const CUSTOMERS: readonly Customer[] = [
  {
    code: 'CISEL',
    name: 'Ciselure',
    address: 'Rue des Quais',
    postcode: '42000',
    city: 'SAINT ETIENNE',
    phone: '04 00 00 00 00',
    contact: 'CAMILLE DURAND',
    mail: '',
  },
  {
    code: 'BOULA',
    name: 'Boulangerie Léa Martin',
    address: '12 place de l’Église',
    postcode: '69003',
    city: 'LYON',
    phone: '04 72 00 00 01',
    contact: 'Léa MARTIN',
    mail: 'contact@boulangerie-martin.example',
  },
  {
    code: 'GARAG',
    name: 'Garage du Pont-Neuf',
    address: '8 avenue Jean Jaurès',
    postcode: '38000',
    city: 'GRENOBLE',
    phone: '04 76 00 00 02',
    contact: 'Théo BERNARD',
    mail: 'atelier@garage-pontneuf.example',
  },
  {
    code: 'HOTEL',
    name: 'Hôtel des Cèdres',
    address: '3 chemin des Écoliers',
    postcode: '73000',
    city: 'CHAMBÉRY',
    phone: '04 79 00 00 03',
    contact: 'Zoé LEFÈVRE',
    mail: 'reception@hotel-cedres.example',
  },
  {
    code: 'MAIRI',
    name: 'Mairie de Saint-Genès',
    address: '1 place de la Mairie',
    postcode: '63000',
    city: 'CLERMONT-FERRAND',
    phone: '04 73 00 00 04',
    contact: 'Jérôme FAURE',
    mail: 'services.techniques@saint-genes.example',
  },
  {
    code: 'SCIBE',
    name: 'SCI Bel Été',
    address: '27 rue François Mitterrand',
    postcode: '26000',
    city: 'VALENCE',
    phone: '04 75 00 00 05',
    contact: 'Chloé ROUSSEL',
    mail: '',
  },
  {
    code: 'EHPAD',
    name: 'EHPAD Les Glycines',
    address: '45 route de Vienne',
    postcode: '69008',
    city: 'LYON',
    phone: '04 78 00 00 06',
    contact: 'Anaïs GIRARD',
    mail: 'direction@glycines.example',
  },
  {
    code: 'FROMA',
    name: "Fromagerie L'Alpage",
    address: '5 rue du Marché',
    postcode: '74000',
    city: 'ANNECY',
    phone: '04 50 00 00 07',
    contact: 'Noël MERCIER',
    mail: 'alpage@fromagerie.example',
  },
];

export interface Article {
  code: string;
  designation: string;
  /** Price before tax, euros. */
  price: number;
  /** VAT rate, percent. */
  vat: number;
}

export const ARTICLES: readonly Article[] = [
  { code: 'ART0001', designation: 'ARTICLETEST', price: 400, vat: 20 },
  { code: 'BAOR01', designation: 'Bague Or et pierres', price: 645, vat: 20 },
  { code: 'CHAUD24', designation: 'Chaudière à condensation 24 kW', price: 2890, vat: 5.5 },
  { code: 'MO-H', designation: "Main d'œuvre (heure)", price: 55, vat: 10 },
  { code: 'DEPL', designation: 'Déplacement zone 1', price: 35, vat: 20 },
  { code: 'THERMO', designation: 'Thermostat connecté', price: 189.9, vat: 20 },
  { code: 'ROB-EAU', designation: 'Robinet d\'arrêt 1/2"', price: 12.5, vat: 20 },
  { code: 'CLIM-MS', designation: 'Climatiseur mural réversible 3,5 kW', price: 1249, vat: 20 },
  { code: 'FILTRE', designation: 'Filtre à particules (lot de 2)', price: 24.9, vat: 20 },
  { code: 'CONTRAT', designation: "Contrat d'entretien annuel", price: 160, vat: 10 },
];

/** Technicians used when a terminal's filters name none (ids of the fixture's SALARIES). */
export const TECHNICIANS: readonly string[] = ['CO00001', 'CO00002', 'CO00004', 'CO00006'];

export const INTERVENTION_SUBJECTS: readonly string[] = [
  'Entretien annuel de la chaudière',
  'Dépannage : plus d’eau chaude',
  'Mise en service climatisation',
  'Remplacement du thermostat',
  'Contrôle de sécurité gaz',
  'Fuite sous évier',
];

export const INTERVENTION_REPORTS: readonly string[] = [
  'Nettoyage du brûleur et contrôle de combustion.\nRéglages effectués, appareil conforme.',
  'Remplacement de la sonde défectueuse.\nEssais concluants, client satisfait.',
  'Pièce à commander : vanne 3 voies.\nNouvelle intervention à prévoir sous 8 jours.',
  'Contrôle des raccords, serrage du joint.\nPlus de fuite constatée après 15 minutes.',
];

export const PHOTO_NAMES: readonly string[] = [
  'Photo chantier',
  'Photo avant travaux',
  'Photo après travaux',
  'Plaque signalétique',
];

export const CIVILITIES: readonly string[] = ['M.', 'Mme', ''];

export const PROSPECT_NAMES: readonly string[] = [
  'Menuiserie Gaël Dubois',
  'Café des Négociants',
  'Pharmacie de l’Étoile',
  'Cabinet Mélanie Roux',
  'Crèche Les P’tits Loups',
];

export const PROSPECT_CITIES: readonly (readonly [string, string])[] = [
  ['01000', 'BOURG-EN-BRESSE'],
  ['07000', 'PRIVAS'],
  ['42100', 'SAINT-ÉTIENNE'],
  ['69100', 'VILLEURBANNE'],
  ['38200', 'VIENNE'],
];
