/**
 * Function words dropped before lexical overlap is measured: small English,
 * Spanish and German lists (the languages of the sample set).
 * Negations ("not", "no", "nie") are here too: overlap ignores them, and the
 * judges that care about polarity check it separately. Contractions appear
 * without apostrophes because the tokeniser removes them ("don't" -> "dont").
 */
const ENGLISH = `a about above after again against all am an and any are as at be because been before being below between both but by
can could did do does doing done down during each either else few for from further get gets got had has have having he her here
hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or
other our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these
they this those through to too under until up very was we were what when where which while who whom whose why will with would you
your yours yourself yourselves also may might must shall let lets etc eg ie vs via per s t d ll m re ve don doesn didn isn aren
wasn weren won wouldn shouldn couldn cant dont doesnt didnt isnt arent wasnt werent wont wouldnt shouldnt couldnt im ive youre
youll youve theyre thats theres heres whats whos hes shes yes yeah ok okay please thank thanks hi hello hey sure well still yet
even ever never however though although instead anyway really quite rather much many one ones thing things way`;

const SPANISH = `a al algo algunas algunos ante antes como con contra cual cuando de del desde donde durante e el ella ellas ellos en entre
era es esa esas ese eso esos esta estas este esto estos está están estar fue ha hay hasta la las le les lo los me mi mis mucho muchos
muy más nada ni no nos nosotros o otra otras otro otros para pero poco por porque puede puedes que qué quien quienes se sea ser si
sí sin sobre son su sus también te ti tiene tienes todo todos tu tus tú un una uno unos usted ustedes y ya yo cómo dónde cuál`;

const GERMAN = `aber als am an auch auf aus bei bin bis bist da damit dann das dass dein deine dem den denn der des dich die dies diese
diesem diesen dieser dieses dir doch du durch ein eine einem einen einer eines er es euch euer für hat hatte haben hier ich ihm ihn
ihr ihre im in ist ja jede jeder jetzt kann kannst kein keine können man mein meine mich mir mit muss müssen nach nicht nie noch nur
ob oder ohne sehr sein seine sich sie sind so soll sollte über um und uns unser unter vom von vor war waren was weil wenn wer wie
wir wird werden wo zu zum zur`;

export const STOPWORDS: ReadonlySet<string> = new Set(
  [ENGLISH, SPANISH, GERMAN]
    .join(" ")
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w.normalize("NFKC")),
);
