// Word lists the events are made of.


export const EVENT_KINDS = [
  'Ärztefortbildung', 'Vortrag', 'Workshop', 'Seminar', 'Kurs', 'Symposium', 'Fortbildung für Pflegepersonen',
  'Ringvorlesung', 'Journal Club', 'Fallkonferenz', 'Mini Med Studium', 'Informationsabend',
];
export const TOPICS = [
  'Aktuelle Therapie der Herzinsuffizienz', 'Antibiotic Stewardship im Krankenhaus', 'Notfallmanagement in der Ordination',
  'Schmerztherapie bei älteren Patientinnen und Patienten', 'Gefäßchirurgie heute', 'Künstliche Intelligenz in der Radiologie',
  'Impfungen für Erwachsene', 'Psychische Gesundheit von Studierenden', 'Ernährung und Stoffwechsel',
  'Sonographie für Einsteigerinnen und Einsteiger', 'Reanimation und Atemwegsmanagement', 'Seltene Erkrankungen im Kindesalter',
  'Hygiene im Operationssaal', 'Fußgesundheit bei Diabetes mellitus', 'Kommunikation mit Angehörigen',
  'Palliativmedizin in der Praxis', 'Allergien und Asthma', 'Schlafmedizin', 'Frauengesundheit in der Menopause',
  'Onkologische Immuntherapie', 'Schilddrüsenerkrankungen', 'Rückenschmerz – was hilft wirklich?', 'Hörsturz und Tinnitus',
  'Grundlagen der Biostatistik', 'Wissenschaftliches Schreiben', 'Ethik in der klinischen Forschung',
  'Telemedizin und digitale Gesundheitsanwendungen', 'Übergewicht im Kindes- und Jugendalter', 'Straßenverkehrsmedizin',
  'Gerinnungsstörungen erkennen und behandeln', 'Große Visite: Fallbesprechungen', 'Blutdruckmessung richtig gemacht',
];
export const PRACTICALS = [
  'Übungen zur Histologie', 'Übungen zur Anatomie', 'Praktikum Physiologie', 'Nahtkurs für Studierende',
  'Übungen: Klinische Untersuchung', 'Sezierkurs Teil 2', 'Skills Lab: Venenpunktion',
];
// Titles with characters that are special in SQL LIKE patterns and regular expressions.
export const LITERAL_SPECIAL_TITLES = [
  (topic: string) => `100% Prävention: ${topic}`,
  (topic: string) => `Kurs_A: ${topic}`,
  (topic: string) => `Modul_2 – ${topic}`,
  () => 'Impfquote 95% – wie erreichen wir das?',
  () => 'Fallbesprechung (Teil 1) – Diagnose?',
];
export const LOCATIONS = [
  'Hörsaal 1, Spitalgasse 23, 1090 Wien', 'Hörsaal 2, Spitalgasse 23, 1090 Wien', 'Seminarraum 05.012',
  'Hörsaalzentrum, Ebene 7, Währinger Gürtel 18–20, 1090 Wien', 'Seminarraum 3, Kinderspitalgasse 15, 1090 Wien',
  'Van Swieten Saal, Van-Swieten-Gasse 1a, 1090 Wien', 'Josephinum, Währinger Straße 25, 1090 Wien',
  'Bibliothek, Lesesaal', 'Online (Webex)', 'Skills Lab, Ebene 6', 'Großer Festsaal, Universitätsring 1, 1010 Wien',
  'Labor 3.14, Lazarettgasse 14, 1090 Wien', 'Billrothhaus, Frankgasse 8, 1090 Wien', 'Hybrid: Hörsaal 3 und online',
  'Kursraum 1, Schwarzspanierstraße 17, 1090 Wien',
];
export const AUDIENCES = [
  'Ärztinnen und Ärzte in Ausbildung', 'Fachärztinnen und Fachärzte', 'Studierende der Humanmedizin',
  'Pflegepersonen und Angehörige der Gesundheitsberufe', 'die interessierte Öffentlichkeit', 'Allgemeinmedizinerinnen und Allgemeinmediziner',
];
export const SENTENCES = [
  'Anhand aktueller Studien werden die wichtigsten Neuerungen für den klinischen Alltag vorgestellt.',
  'Im Anschluss an die Vorträge besteht ausreichend Gelegenheit zur Diskussion.',
  'Die Referentinnen und Referenten berichten aus ihrer langjährigen Erfahrung an der Klinik.',
  'Praktische Übungen in Kleingruppen ergänzen den theoretischen Teil.',
  'Bitte bringen Sie eigene Fallbeispiele mit, die gemeinsam besprochen werden können.',
  'Die Veranstaltung wird in deutscher Sprache abgehalten.',
  'Für Verpflegung in den Pausen ist gesorgt.',
  'Eine Teilnahmebestätigung wird im Anschluss per E-Mail übermittelt.',
  'Die Unterlagen stehen nach der Veranstaltung zum Download bereit.',
  'Ziel ist ein praxisnaher Überblick über Diagnostik, Therapie und Nachsorge.',
  'Der Hörsaal ist barrierefrei über den Haupteingang erreichbar.',
  'Aus organisatorischen Gründen ersuchen wir um pünktliches Erscheinen.',
];
export const PROGRAMME_ITEMS = [
  'Begrüßung und Einführung', 'Aktuelle Leitlinien im Überblick', 'Kaffeepause', 'Fallbeispiele aus der Praxis',
  'Mittagspause', 'Praktische Übungen in Kleingruppen', 'Diskussion und Fragen', 'Zusammenfassung und Ausblick',
];
export const HINWEISE = [
  'Die Veranstaltung wird aufgezeichnet.',
  'Bitte bringen Sie einen Lichtbildausweis mit.',
  'Die Teilnahme ist auf 30 Personen begrenzt.',
  'Parkplätze sind nur in der Tiefgarage Spitalgasse verfügbar.',
];
export const EXTERNAL_LINKS = [
  'https://www.aerztekammer.at/fortbildung', 'https://www.meindfp.at/', 'https://www.oegkj.at/jahrestagung',
  'https://www.gesundheit.gv.at/', 'https://www.univie.ac.at/', 'https://www.wien.gv.at/gesundheit/',
];
export const FEE_INFOS = [
  'Teilnahmegebühr: EUR 120,–; ermäßigt EUR 60,– für Studierende',
  'EUR 250,– inkl. Kursunterlagen und Verpflegung',
  'Mitglieder EUR 80,–, Nichtmitglieder EUR 150,–',
  'Kostenbeitrag EUR 35,– (vor Ort in bar zu bezahlen)',
];
