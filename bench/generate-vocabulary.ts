/**
 * Word lists and reference tables for the scale-content generator (`generate.ts`): cities
 * with real coordinates, time zones, neighbourhoods and venues; sports with leagues, home
 * venues and tournaments; people, title words, genres, tags and devices. Everything here is
 * fixed data, so generated records vary only by the seeded choices made over these tables.
 * Lists are written as `|`-separated strings to keep them dense; `list()` refuses duplicates
 * because the generator builds unique titles by combining entries, and a repeated word would
 * make two "different" titles identical.
 */

/** Splits a `|`-separated list, trimming entries and rejecting duplicates. */
export function list(source: string): readonly string[] {
  const items = source
    .split('|')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item)) throw new Error(`duplicate vocabulary entry: ${item}`);
    seen.add(item);
  }
  return items;
}

export interface City {
  name: string;
  country: string;
  latitude: number;
  longitude: number;
  timeZone: string;
  /** Relative share of records placed here; the owner lives in Zürich, so it dominates. */
  weight: number;
  neighborhoods: readonly string[];
  /** Music venues, used by concerts. */
  venues: readonly string[];
  /** Real streets, so addresses sit in the right city. */
  streets: readonly string[];
}

function city(row: string): City {
  const [name, country, lat, lon, timeZone, weight, neighborhoods, venues, streets] = row.split(';').map((s) => s.trim());
  return {
    name: name!,
    country: country!,
    latitude: Number(lat),
    longitude: Number(lon),
    timeZone: timeZone!,
    weight: Number(weight),
    neighborhoods: neighborhoods!.split(',').map((s) => s.trim()),
    venues: venues!.split(',').map((s) => s.trim()),
    streets: streets!.split(',').map((s) => s.trim()),
  };
}

export const CITIES: readonly City[] = [
  'Zürich; Switzerland; 47.3769; 8.5417; Europe/Zurich; 20; Kreis 4, Seefeld, Oerlikon; Hallenstadion, Rote Fabrik; Langstrasse, Bahnhofstrasse, Seefeldstrasse',
  'Genève; Switzerland; 46.2044; 6.1432; Europe/Zurich; 3; Plainpalais, Eaux-Vives, Carouge; Arena de Genève, L’Usine; Rue du Rhône, Boulevard Carl-Vogt',
  'Basel; Switzerland; 47.5596; 7.5886; Europe/Zurich; 4; Kleinbasel, St. Johann, Gundeli; Kaserne Basel, St. Jakobshalle; Steinenvorstadt, Feldbergstrasse',
  'Berlin; Germany; 52.5200; 13.4050; Europe/Berlin; 6; Kreuzberg, Neukölln, Prenzlauer Berg; Columbiahalle, SO36; Oranienstraße, Kastanienallee',
  'München; Germany; 48.1351; 11.5820; Europe/Berlin; 3; Schwabing, Glockenbachviertel, Haidhausen; Olympiahalle, Muffathalle; Leopoldstraße, Fraunhoferstraße',
  'Düsseldorf; Germany; 51.2277; 6.7735; Europe/Berlin; 1; Altstadt, Flingern, Bilk; Mitsubishi Electric Halle, Zakk; Kiefernstraße, Bilker Allee',
  'Wien; Austria; 48.2082; 16.3738; Europe/Vienna; 3; Leopoldstadt, Neubau, Wieden; Arena Wien, Konzerthaus; Mariahilfer Straße, Praterstraße',
  'Paris; France; 48.8566; 2.3522; Europe/Paris; 5; Le Marais, Belleville, Saint-Germain-des-Prés; L’Olympia, Le Bataclan; Rue Oberkampf, Rue de Rivoli',
  'London; United Kingdom; 51.5074; -0.1278; Europe/London; 5; Shoreditch, Peckham, Camden; Roundhouse, O2 Academy Brixton; Brick Lane, Rye Lane',
  'Amsterdam; Netherlands; 52.3676; 4.9041; Europe/Amsterdam; 3; Jordaan, De Pijp, Noord; Paradiso, Melkweg; Westerstraat, Albert Cuypstraat',
  'Bruxelles; Belgium; 50.8503; 4.3517; Europe/Brussels; 1; Ixelles, Saint-Gilles, Marolles; Ancienne Belgique, Botanique; Rue Haute, Chaussée d’Ixelles',
  'København; Denmark; 55.6761; 12.5683; Europe/Copenhagen; 2; Nørrebro, Vesterbro, Christianshavn; Vega, Royal Arena; Nørrebrogade, Istedgade',
  'Malmö; Sweden; 55.6050; 13.0038; Europe/Stockholm; 1; Möllevången, Västra Hamnen, Limhamn; Plan B, Malmö Arena; Möllevångsgatan, Davidshallsgatan',
  'Göteborg; Sweden; 57.7089; 11.9746; Europe/Stockholm; 1; Haga, Majorna, Linné; Pustervik, Scandinavium; Haga Nygata, Linnégatan',
  'Reykjavík; Iceland; 64.1466; -21.9426; Atlantic/Reykjavik; 1; Miðborg, Vesturbær, Hlíðar; Harpa, Gamla Bíó; Laugavegur, Skólavörðustígur',
  'Kraków; Poland; 50.0647; 19.9450; Europe/Warsaw; 2; Kazimierz, Stare Miasto, Podgórze; Tauron Arena, Klub Studio; ulica Floriańska, ulica Józefa',
  'Łódź; Poland; 51.7592; 19.4560; Europe/Warsaw; 1; Śródmieście, Bałuty, Widzew; Atlas Arena, Wytwórnia; ulica Piotrkowska, ulica Zielona',
  'Praha; Czechia; 50.0755; 14.4378; Europe/Prague; 2; Vinohrady, Žižkov, Malá Strana; Lucerna Music Bar, O2 arena; Vinohradská, Husova',
  'Milano; Italy; 45.4642; 9.1900; Europe/Rome; 2; Navigli, Brera, Isola; Alcatraz, Fabrique; Corso Como, Via Tortona',
  'Roma; Italy; 41.9028; 12.4964; Europe/Rome; 2; Trastevere, Monti, Testaccio; Auditorium Parco della Musica, Atlantico; Via del Corso, Via della Lungaretta',
  'Barcelona; Spain; 41.3874; 2.1686; Europe/Madrid; 3; Gràcia, El Born, Poblenou; Razzmatazz, Sala Apolo; Carrer de Verdi, Carrer de Blai',
  'Málaga; Spain; 36.7213; -4.4214; Europe/Madrid; 1; Soho, El Palo, Pedregalejo; Sala París 15, Teatro Cervantes; Calle Larios, Calle Granada',
  'Lisboa; Portugal; 38.7223; -9.1393; Europe/Lisbon; 2; Alfama, Bairro Alto, Príncipe Real; Coliseu dos Recreios, Musicbox; Rua do Norte, Rua Augusta',
  'Athens; Greece; 37.9838; 23.7275; Europe/Athens; 1; Plaka, Exarchia, Koukaki; Fuzz Club, Gagarin 205; Odos Ermou, Odos Themistokleous',
  'İstanbul; Türkiye; 41.0082; 28.9784; Europe/Istanbul; 1; Kadıköy, Beyoğlu, Beşiktaş; Zorlu PSM, Salon İKSV; İstiklal Caddesi, Moda Caddesi',
  'Helsinki; Finland; 60.1699; 24.9384; Europe/Helsinki; 1; Kallio, Punavuori, Töölö; Tavastia, Kulttuuritalo; Fredrikinkatu, Vaasankatu',
  'New York; United States; 40.7128; -74.0060; America/New_York; 4; Williamsburg, East Village, Harlem; Bowery Ballroom, Madison Square Garden; Bedford Avenue, Avenue A',
  'Chicago; United States; 41.8781; -87.6298; America/Chicago; 1; Wicker Park, Pilsen, Logan Square; Metro, Thalia Hall; Milwaukee Avenue, 18th Street',
  'San Francisco; United States; 37.7749; -122.4194; America/Los_Angeles; 2; Mission District, North Beach, Haight-Ashbury; The Fillmore, The Warfield; Valencia Street, Columbus Avenue',
  'Montréal; Canada; 45.5019; -73.5674; America/Toronto; 2; Plateau-Mont-Royal, Mile End, Vieux-Montréal; MTELUS, Casa del Popolo; Rue Saint-Denis, Boulevard Saint-Laurent',
  'Ciudad de México; Mexico; 19.4326; -99.1332; America/Mexico_City; 2; Roma Norte, Coyoacán, Condesa; Foro Sol, Auditorio Nacional; Calle Madero, Avenida Álvaro Obregón',
  'São Paulo; Brazil; -23.5505; -46.6333; America/Sao_Paulo; 2; Vila Madalena, Pinheiros, Liberdade; Allianz Parque, Audio; Avenida Paulista, Rua Augusta',
  'Buenos Aires; Argentina; -34.6037; -58.3816; America/Argentina/Buenos_Aires; 1; Palermo, San Telmo, La Boca; Niceto Club, Teatro Colón; Avenida Corrientes, Calle Defensa',
  'Bogotá; Colombia; 4.7110; -74.0721; America/Bogota; 1; Chapinero, La Candelaria, Usaquén; Movistar Arena, Teatro Colsubsidio; Carrera Séptima, Calle 85',
  'Cape Town; South Africa; -33.9249; 18.4241; Africa/Johannesburg; 1; Bo-Kaap, Woodstock, Sea Point; Kirstenbosch Gardens, The Waiting Room; Long Street, Bree Street',
  'Nairobi; Kenya; -1.2921; 36.8219; Africa/Nairobi; 1; Westlands, Kilimani, Karen; Alliance Française, The Alchemist; Moi Avenue, Ngong Road',
  'Tokyo; Japan; 35.6762; 139.6503; Asia/Tokyo; 3; Shimokitazawa, Shibuya, Yanaka; Nippon Budokan, Liquidroom; Shimokita Ekimae, Omotesando',
  'Seoul; South Korea; 37.5665; 126.9780; Asia/Seoul; 1; Hongdae, Itaewon, Seongsu; Rolling Hall, KSPO Dome; Hongik-ro, Itaewon-ro',
  'Singapore; Singapore; 1.3521; 103.8198; Asia/Singapore; 1; Tiong Bahru, Kampong Glam, Joo Chiat; The Esplanade, Capitol Theatre; Tiong Bahru Road, Haji Lane',
  'Mumbai; India; 19.0760; 72.8777; Asia/Kolkata; 1; Bandra, Colaba, Juhu; NSCI Dome, Antisocial; Linking Road, Colaba Causeway',
  'Sydney; Australia; -33.8688; 151.2093; Australia/Sydney; 1; Newtown, Surry Hills, Bondi; Enmore Theatre, Sydney Opera House; King Street, Crown Street',
  'Auckland; New Zealand; -36.8485; 174.7633; Pacific/Auckland; 1; Ponsonby, Grey Lynn, Karangahape Road; Powerstation, The Tuning Fork; Ponsonby Road, Karangahape Road',
].map(city);

export function cityNamed(name: string): City {
  const found = CITIES.find((c) => c.name === name);
  if (!found) throw new Error(`unknown city ${name}`);
  return found;
}

// ── sports ───────────────────────────────────────────────────────────────────

export interface Home {
  /** The home side, or the fixed title of a tournament, race or meeting. */
  name: string;
  venue: string;
  city: string;
}

export interface League {
  sport: string;
  league: string;
  /** `teams` leagues are "Home vs Away" fixtures; `players` are tournament matches; `field` are races and meetings. */
  format: 'teams' | 'players' | 'field';
  homes: readonly Home[];
  /** Opponents that never host in this data set (their grounds are in cities the generator does not know). */
  visitors: readonly string[];
  /** For `field` formats: the teams or entrants listed on the record. */
  entrants?: readonly string[];
}

function homes(source: string): Home[] {
  return source.split('|').map((row) => {
    const [name, venue, cityName] = row.split(';').map((s) => s.trim());
    cityNamed(cityName!);
    return { name: name!, venue: venue!, city: cityName! };
  });
}

export const LEAGUES: readonly League[] = [
  {
    sport: 'Football',
    league: 'Super League',
    format: 'teams',
    homes: homes(
      'FC Zürich; Letzigrund; Zürich | Grasshopper Club Zürich; Letzigrund; Zürich | Servette FC; Stade de Genève; Genève | FC Basel; St. Jakob-Park; Basel',
    ),
    visitors: list('BSC Young Boys | FC Lugano | FC St. Gallen | FC Luzern'),
  },
  {
    sport: 'Football',
    league: 'Bundesliga',
    format: 'teams',
    homes: homes(
      'FC Bayern München; Allianz Arena; München | Hertha BSC; Olympiastadion Berlin; Berlin | 1. FC Union Berlin; Stadion An der Alten Försterei; Berlin | Fortuna Düsseldorf; Merkur Spiel-Arena; Düsseldorf',
    ),
    visitors: list('Borussia Dortmund | SC Freiburg | VfB Stuttgart | Werder Bremen'),
  },
  {
    sport: 'Football',
    league: 'Premier League',
    format: 'teams',
    homes: homes('Arsenal; Emirates Stadium; London | Tottenham Hotspur; Tottenham Hotspur Stadium; London'),
    visitors: list('Liverpool | Manchester City | Everton | Newcastle United'),
  },
  {
    sport: 'Football',
    league: 'La Liga',
    format: 'teams',
    homes: homes('FC Barcelona; Spotify Camp Nou; Barcelona | Málaga CF; La Rosaleda; Málaga'),
    visitors: list('Real Madrid | Sevilla FC | Athletic Club | Real Sociedad'),
  },
  {
    sport: 'Football',
    league: 'Serie A',
    format: 'teams',
    homes: homes('AC Milan; San Siro; Milano | Inter; San Siro; Milano | AS Roma; Stadio Olimpico; Roma'),
    visitors: list('Juventus | SSC Napoli | Atalanta'),
  },
  {
    sport: 'Football',
    league: 'Ligue 1',
    format: 'teams',
    homes: homes('Paris Saint-Germain; Parc des Princes; Paris'),
    visitors: list('Olympique de Marseille | Olympique Lyonnais | LOSC Lille'),
  },
  {
    sport: 'Football',
    league: 'Ekstraklasa',
    format: 'teams',
    homes: homes('Wisła Kraków; Stadion Miejski im. Henryka Reymana; Kraków | ŁKS Łódź; Stadion Króla; Łódź'),
    visitors: list('Legia Warszawa | Lech Poznań | Górnik Zabrze'),
  },
  {
    sport: 'Football',
    league: 'Allsvenskan',
    format: 'teams',
    homes: homes('Malmö FF; Eleda Stadion; Malmö | IFK Göteborg; Gamla Ullevi; Göteborg'),
    visitors: list('AIK | Djurgårdens IF | Hammarby IF'),
  },
  {
    sport: 'Football',
    league: 'Süper Lig',
    format: 'teams',
    homes: homes('Galatasaray; RAMS Park; İstanbul | Fenerbahçe; Ülker Stadyumu; İstanbul'),
    visitors: list('Beşiktaş | Trabzonspor'),
  },
  {
    sport: 'Football',
    league: 'Brasileirão',
    format: 'teams',
    homes: homes('São Paulo FC; Estádio do Morumbi; São Paulo | SE Palmeiras; Allianz Parque; São Paulo'),
    visitors: list('Flamengo | Grêmio | Atlético Mineiro'),
  },
  {
    sport: 'Football',
    league: 'Liga Profesional',
    format: 'teams',
    homes: homes('Boca Juniors; La Bombonera; Buenos Aires | River Plate; Estadio Monumental; Buenos Aires'),
    visitors: list('Racing Club | Independiente | San Lorenzo'),
  },
  {
    sport: 'Basketball',
    league: 'NBA',
    format: 'teams',
    homes: homes(
      'Chicago Bulls; United Center; Chicago | New York Knicks; Madison Square Garden; New York | Golden State Warriors; Chase Center; San Francisco',
    ),
    visitors: list('Boston Celtics | Los Angeles Lakers | Denver Nuggets | Miami Heat'),
  },
  {
    sport: 'Basketball',
    league: 'EuroLeague',
    format: 'teams',
    homes: homes('FC Barcelona Bàsquet; Palau Blaugrana; Barcelona | Anadolu Efes; Sinan Erdem Dome; İstanbul | ALBA Berlin; Uber Arena; Berlin'),
    visitors: list('Real Madrid Baloncesto | Olympiacos | Žalgiris Kaunas | Partizan'),
  },
  {
    sport: 'Ice Hockey',
    league: 'National League',
    format: 'teams',
    homes: homes('ZSC Lions; Swiss Life Arena; Zürich | Genève-Servette HC; Patinoire des Vernets; Genève'),
    visitors: list('HC Davos | SC Bern | EV Zug | HC Lugano'),
  },
  {
    sport: 'Ice Hockey',
    league: 'NHL',
    format: 'teams',
    homes: homes('Montréal Canadiens; Centre Bell; Montréal | New York Rangers; Madison Square Garden; New York | Chicago Blackhawks; United Center; Chicago'),
    visitors: list('Toronto Maple Leafs | Boston Bruins | Edmonton Oilers'),
  },
  {
    sport: 'Rugby',
    league: 'Top 14',
    format: 'teams',
    homes: homes('Stade Français; Stade Jean-Bouin; Paris'),
    visitors: list('Stade Toulousain | ASM Clermont Auvergne | RC Toulon'),
  },
  { sport: 'Rugby', league: 'Super Rugby', format: 'teams', homes: homes('Blues; Eden Park; Auckland'), visitors: list('Crusaders | Chiefs | Brumbies') },
  {
    sport: 'Tennis',
    league: 'Grand Slam',
    format: 'players',
    homes: homes(
      'Wimbledon; All England Lawn Tennis Club; London | Roland-Garros; Stade Roland-Garros; Paris | US Open; USTA Billie Jean King National Tennis Center; New York',
    ),
    visitors: [],
  },
  {
    sport: 'Tennis',
    league: 'ATP Tour',
    format: 'players',
    homes: homes('Swiss Indoors; St. Jakobshalle; Basel | Japan Open; Ariake Coliseum; Tokyo'),
    visitors: [],
  },
  {
    sport: 'Cycling',
    league: 'UCI World Tour',
    format: 'field',
    homes: homes(
      'Tour de France, final stage; Champs-Élysées; Paris | Giro d’Italia, final stage; Circo Massimo; Roma | Tour de Pologne, final stage; Błonia; Kraków',
    ),
    visitors: [],
    entrants: list('UAE Team Emirates | Visma–Lease a Bike | Soudal Quick-Step | INEOS Grenadiers | Lidl-Trek | Tudor Pro Cycling'),
  },
  {
    sport: 'Formula 1',
    league: 'Formula 1 World Championship',
    format: 'field',
    homes: homes(
      'São Paulo Grand Prix; Autódromo José Carlos Pace; São Paulo | Mexico City Grand Prix; Autódromo Hermanos Rodríguez; Ciudad de México | Singapore Grand Prix; Marina Bay Street Circuit; Singapore',
    ),
    visitors: [],
    entrants: list('Ferrari | McLaren | Mercedes | Red Bull Racing | Williams | Aston Martin | Alpine'),
  },
  {
    sport: 'Athletics',
    league: 'Diamond League',
    format: 'field',
    homes: homes('Weltklasse Zürich; Letzigrund; Zürich | Memorial Van Damme; King Baudouin Stadium; Bruxelles'),
    visitors: [],
  },
];

export const TENNIS_ROUNDS = list('Final | Semifinal | Quarterfinal | Round of 16 | Second Round');

// ── people and names ────────────────────────────────────────────────────────

export const FIRST_NAMES = list(
  'Anna | Jonas | Zoë | Søren | Małgorzata | José | Çağla | Ingrid | Mateo | Chiara | Léa | Nikolai | Aiko | Oluwaseun | Priya | ' +
    'Tomás | Agnieszka | Björn | Émile | Fatima | Hiroshi | Isabel | Jakub | Kaia | Lars | Marta | Noor | Olga | Pablo | Rhiannon | ' +
    'Sven | Thandiwe | Ugo | Valérie | Wojciech | Ximena | Yusuf | Zsófia | Dario | Elif | Grace | Henrik | Inès | Jörg | Kofi',
);

export const LAST_NAMES = list(
  'Müller | Nowak | Sørensen | García | Ødegaard | Wójcik | Dvořák | Yılmaz | Nakamura | Rossi | Dubois | Okafor | Silva | Kowalski | ' +
    'Andersson | Fischer | Bianchi | Novák | Petrović | Schmid | Lefèvre | Costa | Jensen | Takahashi | Haddad | Moreau | Keller | ' +
    'Lindqvist | Mendes | Horváth | Ivanova | Brennan | Castillo | Achterberg | Nguyen | Papadopoulos | Gallagher | Salo | Mbeki | ' +
    'Weiß | Łukasik | Zimmermann | Fernández | Hansen | Rahman',
);

// ── title words ─────────────────────────────────────────────────────────────

export const ADJECTIVES = list(
  'Silent | Golden | Hidden | Broken | Distant | Electric | Quiet | Crimson | Endless | Frozen | Wild | Hollow | Burning | Gentle | ' +
    'Lost | Secret | Northern | Southern | Midnight | Morning | Evening | Summer | Winter | Autumn | Little | Last | First | Final | ' +
    'Bitter | Sweet | Blue | Green | Red | White | Black | Silver | Iron | Paper | Glass | Stone | Velvet | Wooden | Bright | Dark | ' +
    'Open | Narrow | Long | Empty | Crowded | Lonely | Restless | Sleeping | Falling | Rising | Drifting | Wandering | Strange | ' +
    'Familiar | Ancient | Modern | Invisible | Fragile | Brave | Curious | Honest | Naïve | Tender | Lucid | Radiant | Salty | ' +
    'Dusty | Rainy | Foggy | Windy | Sunlit | Moonlit | Starry | Hungry | Slow | Fast | Heavy | Tiny | Vast | Wet | Soft | Loud | ' +
    'Copper | Amber | Scarlet | Emerald | Violet | Pale | Secondhand | Borrowed | Common | Rare | Secular | Unfinished',
);

export const NOUNS = list(
  'River | Mountain | City | Harbor | Garden | Forest | Window | Mirror | Letter | Island | Bridge | Station | Shadow | Signal | ' +
    'Engine | Orchard | Lantern | Compass | Kingdom | Machine | Ocean | Desert | Valley | Meadow | Canyon | Lighthouse | Archive | ' +
    'Library | Theater | Circus | Carnival | Market | Kitchen | Balcony | Staircase | Corridor | Tower | Castle | Cathedral | ' +
    'Village | Horizon | Weather | Season | Summit | Glacier | Tide | Current | Ember | Feather | Thread | Needle | Anchor | Sail | ' +
    'Map | Atlas | Clock | Bell | Drum | Piano | Violin | Choir | Song | Poem | Novel | Chapter | Promise | Secret | Memory | ' +
    'Dream | Fever | Winter | Ghost | Stranger | Neighbor | Traveler | Sailor | Gardener | Painter | Dancer | Swimmer | Cartographer | ' +
    'Fox | Wolf | Heron | Raven | Whale | Bear | Falcon | Moth | Rabbit | Tiger | Orca | Lynx | Owl | Salmon | ' +
    'Café | Façade | Soirée | Fiancée | Rendezvous | Fjord | Piñata | Mañana | Smörgåsbord | Tundra | Oasis | Monsoon | Aurora | ' +
    'Algorithm | Protocol | Compiler | Database | Network | Satellite | Telescope | Microscope | Radio | Camera | Bicycle | Tram | ' +
    'Harvest | Festival | Parade | Funeral | Wedding | Holiday | Weekend | Afternoon | Twilight | Dawn | Dusk | Storm | Thunder | ' +
    'Paradox | Puzzle | Riddle | Mystery | Theory | Experiment | Manifesto | Grammar | Alphabet | Dialect | Accent | Silence',
);

export const WORDS_FOR_TAGS = list(
  'javascript | typescript | rust | databases | sqlite | design | typography | cities | climate | maps | privacy | security | ai | ' +
    'history | science | music | film | books | cycling | running | photography | food | travel | economics | management | ' +
    'writing | productivity | web | css | accessibility | open-source | hardware | space | biology | education | architecture | ' +
    'transport | energy | language | math',
);

export const MOVIE_GENRES = list(
  'Drama | Comedy | Thriller | Documentary | Science Fiction | Horror | Romance | Animation | Crime | Fantasy | Western | ' +
    'Musical | War | Mystery | Adventure | Action | Biography | Film Noir | Family | History',
);

export const MUSIC_GENRES = list(
  'Indie Rock | Jazz | Electronic | Hip-Hop | Folk | Classical | Techno | Ambient | Post-Punk | Soul | R&B | Metal | ' +
    'Bossa Nova | Krautrock | Shoegaze | Afrobeat | Country | Reggae | Pop | Chanson',
);

export const BOOK_GENRES = list(
  'Literary Fiction | Science Fiction | Fantasy | Mystery | History | Biography | Essays | Poetry | Philosophy | Science | ' +
    'Travel | Graphic Novel | Memoir | Economics | Nature | Politics | Crime | Short Stories',
);

// ── places ──────────────────────────────────────────────────────────────────

export interface PlaceKind {
  word: string;
  category: string;
  /** Whether the kind word leads ("Café Lantern") or trails ("Lantern Park"). */
  leads: boolean;
}

export const PLACE_KINDS: readonly PlaceKind[] = [
  ...list('Café | Kaffeebar | Espresso Bar').map((word) => ({ word, category: 'coffee', leads: true })),
  ...list('Roastery | Coffee House').map((word) => ({ word, category: 'coffee', leads: false })),
  ...list('Trattoria | Osteria | Brasserie | Taquería | Izakaya | Bistro | Ristorante | Cantina').map((word) => ({ word, category: 'food', leads: true })),
  ...list('Kitchen | Noodle House | Bakery | Diner').map((word) => ({ word, category: 'food', leads: false })),
  ...list('Bar | Weinbar | Bodega').map((word) => ({ word, category: 'bars', leads: true })),
  ...list('Taproom | Biergarten | Tavern | Cocktail Club').map((word) => ({ word, category: 'bars', leads: false })),
  ...list('Park | Gardens | Lookout | Trail | Beach | Woods').map((word) => ({ word, category: 'nature', leads: false })),
  ...list('Kino | Teatro').map((word) => ({ word, category: 'entertainment', leads: true })),
  ...list('Cinema | Jazz Club | Bookshop | Arcade | Gallery').map((word) => ({ word, category: 'entertainment', leads: false })),
  ...list('Hotel | Pension | Hostel').map((word) => ({ word, category: 'lodging', leads: true })),
  ...list('Inn | Guesthouse | Lodge').map((word) => ({ word, category: 'lodging', leads: false })),
  ...list('Atelier | Markthalle').map((word) => ({ word, category: 'other', leads: true })),
  ...list('Laundromat | Record Store | Co-working').map((word) => ({ word, category: 'other', leads: false })),
];

// ── events ──────────────────────────────────────────────────────────────────

export const EVENT_TOPICS = list(
  'JavaScript | Rust | Open Source | Design | Data | Photography | Jazz | Architecture | Climate | Urbanism | Typography | ' +
    'Game Developers | Privacy | Cartography | Robotics | Food | Poetry | Science | Comics | Cinema | Electronic Music | ' +
    'Web Performance | Accessibility | Cycling | Craft Beer | Independent Publishing | Ceramics | Astronomy | Linux | Folk',
);

/** Event kinds as they appear in titles, with the lowercase `type` they are filed under. */
export const EVENT_KINDS: readonly { word: string; type: string }[] = [
  { word: 'Conference', type: 'conference' },
  { word: 'Festival', type: 'festival' },
  { word: 'Summit', type: 'conference' },
  { word: 'Expo', type: 'trade fair' },
  { word: 'Biennale', type: 'exhibition' },
  { word: 'Exhibition', type: 'exhibition' },
  { word: 'Meetup', type: 'meetup' },
  { word: 'Workshop', type: 'workshop' },
  { word: 'Hackathon', type: 'hackathon' },
  { word: 'Days', type: 'conference' },
  { word: 'Lecture Night', type: 'talk' },
  { word: 'Book Fair', type: 'book fair' },
];

export const EVENT_VENUES = list(
  'Kongresshaus | Convention Centre | Kunsthalle | Messe | Town Hall | Volkshaus | Design Museum | Public Library | Kulturfabrik | University Aula',
);

// ── music ──────────────────────────────────────────────────────────────────

export const TOUR_WORDS = list('World Tour | Tour | Anniversary Tour | Farewell Tour | Summer Tour | Club Tour | Unplugged Tour');
/** Festival names are the host city plus one of these: "Zürich Open Air", "Kraków Jazz Festival". */
export const FESTIVAL_WORDS = list('Open Air | Jazz Festival | Sound Festival | Music Week | Summer Nights | Indie Days');

// ── work ────────────────────────────────────────────────────────────────────

export const COMPANY_WORDS = list(
  'Helvetic | Lumen | Northwind | Alpine | Kestrel | Basalt | Meridian | Tessera | Quill | Fjordline | Parallax | Ostrava | Cobalt | Juniper | Halyard | Vireo',
);
export const COMPANY_SUFFIXES = list('Data AG | Labs | Analytics GmbH | Systems | Software | Studio | Mobility | Health SA | Robotics');
export const UNIVERSITIES = list(
  'ETH Zürich | Universität Wien | Uniwersytet Jagielloński | Universidade de São Paulo | Université de Genève | ' +
    'Technische Universität Berlin | KTH Royal Institute of Technology | University of Edinburgh | EPFL | Universitat de Barcelona | ' +
    'The University of Tokyo | Universidad de Buenos Aires',
);
export const VOLUNTEER_ORGS = list(
  'Zürich JS Meetup | Code Club | Wikimedia CH | OpenStreetMap Polska | Rails Girls | Python Software Verein | ' +
    'Bike Kitchen Kreis 5 | Tafel Zürich | Mozilla Reps | Women Who Code | Refugee Code Week | Swiss Alpine Club',
);
export const SIDE_PROJECTS = list(
  'tiny-router | yaml-lint-lite | trailmap | coffee-log | sqlite-fts-demo | photo-exif-tools | ics-merge | ' +
    'tram-times | bookshelf-api | gpx-slicer | taste-profile | dotfiles-kit | fjord-theme | ratelimit-ts | mdx-kit',
);

/** Position titles, grouped by the `kind` of work they are. */
export const WORK_TITLES: Readonly<Record<string, readonly string[]>> = {
  job: list(
    'Software Engineer | Senior Software Engineer | Staff Engineer | Engineering Manager | Data Scientist | Product Designer | ' +
      'Site Reliability Engineer | Frontend Developer | Backend Developer | Technical Writer | CTO | Research Engineer',
  ),
  freelance: list('Freelance Developer | Consultant | Contract Designer'),
  education: list('BSc Computer Science | MSc Computer Science | PhD Candidate | Exchange Student | Teaching Assistant'),
  volunteer: list('Mentor | Board Member | Volunteer Organizer | Meetup Host'),
  'side-project': list('Maintainer | Creator | Co-founder'),
};

/** Lines for work summaries and highlights; `{t}` a technical topic, `{l}` a language, `{p}` a number. */
export const WORK_LINES = list(
  'Led the {t} rewrite in {l}. | Cut {t} latency by {p}%. | Mentored {p} engineers through their first year. | ' +
    'Shipped {t} to every customer. | Introduced {l} for {t}. | Owned on-call for {t}. | Wrote the internal guide to {t}. | ' +
    'Reduced cloud costs by {p}% by reworking {t}. | Ran {p} user interviews about {t}. | Organised the yearly {t} hack week.',
);

export const SKILLS = list(
  'TypeScript | Rust | Go | Python | SQL | PostgreSQL | SQLite | Kubernetes | Terraform | React | Astro | Node.js | GraphQL | ' +
    'Figma | Accessibility | Machine Learning | Data Visualization | OpenStreetMap | GIS | Technical Writing | Mentoring | ' +
    'Public Speaking | C++ | Swift | Kotlin | Elixir | WebAssembly | Docker | Linux | Observability | Security | Statistics | ' +
    'German | French | Polish | Portuguese | Spanish',
);

// ── code ────────────────────────────────────────────────────────────────────

export const LANGUAGES = list('TypeScript | JavaScript | Rust | Go | Python | C | C++ | Swift | Kotlin | Elixir | Ruby | Shell | HTML | CSS');
export const CODE_ORGS = list(
  'nodejs | withastro | denoland | sqlite | rust-lang | golang | python | mozilla | openstreetmap | honojs | unjs | cloudflare | simonw | tc39 | w3c',
);
export const CODE_NAME_WORDS = list(
  'fast | tiny | micro | yaml | json | csv | geo | tile | route | cache | queue | parse | lint | fmt | sync | store | query | ' +
    'feed | map | time | text | image | pixel | audio | trail | graph | vector | index | search | stream',
);
export const CODE_NAME_TAILS = list('kit | lib | core | cli | rs | js | ts | server | client | tools | lab | utils');
export const CODE_VERBS = list('Fix | Add | Remove | Refactor | Document | Speed up | Simplify | Rename | Test | Guard');
export const CODE_THINGS = list(
  'cursor pagination | ETag handling | YAML parsing | timezone offsets | accent folding | ISBN checksum | CSV quoting | ' +
    'GeoJSON export | rate limiting | keyset sort | error messages | build cache | Unicode normalization | connection pool | ' +
    'memory leak | flaky test | CI matrix | type definitions | README examples | date parsing',
);

// ── photos, videos, podcasts, reading ───────────────────────────────────────

/** Camera bodies with their native image size and the lenses seen on them. */
export const CAMERAS: readonly { name: string; width: number; height: number; lenses: readonly string[] }[] = [
  { name: 'Fujifilm X100V', width: 6240, height: 4160, lenses: ['Fujinon 23mm F2'] },
  { name: 'Fujifilm X-T4', width: 6240, height: 4160, lenses: ['XF 23mm F2 R WR', 'XF 56mm F1.2 R', 'XF 16-80mm F4 R OIS WR'] },
  { name: 'Sony α7 III', width: 6000, height: 4000, lenses: ['FE 35mm F1.8', 'FE 85mm F1.8', 'FE 24-105mm F4 G OSS'] },
  { name: 'Leica Q2', width: 8368, height: 5584, lenses: ['Summilux 28 f/1.7 ASPH.'] },
  { name: 'Ricoh GR III', width: 6000, height: 4000, lenses: ['GR Lens 18.3mm F2.8'] },
  { name: 'Apple iPhone 15 Pro', width: 4032, height: 3024, lenses: ['iPhone 15 Pro back triple camera 6.86mm f/1.78'] },
  { name: 'Google Pixel 8', width: 4080, height: 3072, lenses: ['Pixel 8 back camera 6.9mm f/1.68'] },
  { name: 'Canon EOS R6', width: 5472, height: 3648, lenses: ['RF 24-105mm F4L IS USM', 'RF 50mm F1.8 STM'] },
  { name: 'Nikon Z 6II', width: 6048, height: 4024, lenses: ['NIKKOR Z 50mm f/1.8 S', 'NIKKOR Z 24-70mm f/4 S'] },
  { name: 'OM System OM-5', width: 5184, height: 3888, lenses: ['M.Zuiko 12-45mm F4.0 PRO'] },
];

export const PHOTO_SUBJECTS = list(
  'Tram at dusk | Market stalls | Harbour cranes | Rooftops after rain | Street musician | Old bookshop | Morning fog | ' +
    'Ferry crossing | Alpine pass | Night bus | Festival crowd | Empty platform | Neon sign | Coffee and newspaper | ' +
    'Bridge in winter | Fishing boats | Cathedral steps | Bicycle rack | Snowy park | Sunset over the lake',
);

export const VIDEO_CATEGORIES = list('talk | documentary | music | tutorial | lecture | interview | short film | live session | video essay');
export const REAL_PUBLICATIONS = list(
  'theguardian.com | nytimes.com | nzz.ch | lemonde.fr | elpais.com | spiegel.de | wired.com | theatlantic.com | arstechnica.com | ' +
    'lwn.net | quantamagazine.org | aeon.co | newyorker.com | economist.com | bbc.co.uk | republik.ch | gazeta.pl | folha.uol.com.br | ' +
    'simonwillison.net | jvns.ca | danluu.com | martinfowler.com | css-tricks.com | smashingmagazine.com | hacks.mozilla.org | ' +
    'blog.rust-lang.org | github.blog | stratechery.com | kottke.org | publicdomainreview.org | nautil.us | lrb.co.uk | ' +
    'citylab.com | atlasobscura.com | 99percentinvisible.org',
);

export const EMOJI = list('☕ | 🚲 | 📷 | 🎶 | ✨ | 🏔️ | 🇨🇭 | 🧵 | 📚 | 🌧️ | 🙃 | 🎉');

export const TWEET_OPENERS = list(
  'Just finished | Hot take: | TIL | Reminder: | Can’t stop thinking about | New post: | Quick note on | Finally tried | ' +
    'Honest question about | Small joy: | Unpopular opinion: | Reading about | Spent the afternoon with | Thread on',
);

/** Sentence frames for notes and bodies; `{a}` adjective, `{n}`/`{m}` nouns, `{c}` a city. */
export const SENTENCES = list(
  'The {a} {n} was better than I remembered. | We walked past the {a} {n} in {c} twice. | I keep coming back to the {n}. | ' +
    'Worth it for the {n} alone, even if the {m} dragged. | Not sure the {a} {m} works, but the {n} does. | ' +
    'Rain all day in {c}, so the {n} had to wait. | A friend recommended the {n}; she was right about the {a} parts. | ' +
    'The second half felt {a}, like a {m} without a {n}. | Bring a jacket: the {n} gets {a} after sunset. | ' +
    'Would go again, maybe with the {a} {m} next time. | Surprisingly {a}. | The {m} near {c} is the real highlight. | ' +
    'Notes to self: more {n}, less {m}. | It rewards patience: the {a} {n} only shows up at the end.',
);
