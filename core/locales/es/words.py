"""Spanish word tables: never names, titles, relation words, particles, phrases, abbreviations."""

from core.locales.base import words

MONTHS = (
    "enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre "
    "diciembre ene feb mar abr jun jul ago sep sept oct nov dic"
).split()

NEGATIVES = words(
    # the verbs a request begins with ("Herschrijf mijn brief")
    "Escribe Escriba Redacta Redacte Reescribe Traduce Traduzca Ayúdame Ayuda Revisa Revise Corrige Explica Explique Resume Resuma "
    "Tel Tlf Teléfono Móvil Fax "
    "enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre "
    "Hola Buenos Buenas Días Tardes Noches Estimado Estimada Estimados Querido Querida "
    "Saludos Atentamente Cordialmente Gracias Muchas Un Saludo Abrazo Besos "
    "El La Los Las Un Una Unos Unas Y O Pero Porque Que Qué Quien Quién Cuando Cuándo Como "
    "Cómo Donde Dónde Yo Tú Él Ella Usted Nosotros Nosotras Vosotros Ellos Ellas Ustedes Me Te "
    "Se Nos Os Le Les Lo Mi Mis Tu Tus Su Sus Nuestro Nuestra Nuestros Nuestras Este Esta "
    "Estos Estas Ese Esa Eso En Con Por Para De Del Al A Desde Hasta Sobre Entre Sin Según "
    "Tras Durante Hacia No Sí Ya También Muy Más Hoy Ayer Mañana Ahora Después Luego Antes "
    "Es Son Era Fue Tengo Tiene Tenemos Hay Puedo Puede Necesito Quiero Quisiera Debo Todo Todos "
    "lunes martes miércoles jueves viernes sábado domingo "
    "padre madre hijo hija hermano hermana marido esposo esposa mujer pareja abuelo abuela tío "
    "tía sobrino sobrina primo prima novio novia amigo amiga jefe jefa compañero compañera "
    "supervisor supervisora empleador médico médica doctor doctora abogado abogada casero "
    "casera vecino vecina paciente cliente asesor asesora enfermero enfermera dentista "
    "cita consulta clínica hospital receta tratamiento dolor fiebre contrato despido "
    "salario sueldo nómina vacaciones preaviso juzgado demanda factura cuenta transferencia "
    "banco impuestos alquiler piso fianza seguro pedido envío paquete pregunta ayuda problema "
    "carta correo dirección teléfono móvil nombre apellidos año años mes meses semana "
    "horas euros empresa departamento equipo oficina trabajo baja diagnóstico medicamento "
    "dosis análisis analítica número IBAN DNI NIE NIF Seguridad Social Hacienda"
)

# medical, legal and everyday acronyms that are terms, not organisations ("un TAC")
NEGATIVES = NEGATIVES | words("TAC RMN ECG IVA IRPF DNI NIE NIF ERE ERTE PDF RRHH RR HH")
# the kinds of proceedings a court letter names ("Procedimiento Ordinario 287/2025")
NEGATIVES = NEGATIVES | words("Procedimiento Ordinario Abreviado Monitorio Verbal Cambiario Juicio Autos Recurso")
# the verbs a clinical note begins a sentence with ("Ingresó en el Hospital ...")
NEGATIVES = NEGATIVES | words("Ingresó Ingresa Ingresado Ingresada Acude Acudió Presenta Presentó Refiere Refirió")
# lab tests written before their result ("Kreatinin 1,9 mg/dl"): no one's name
NEGATIVES = NEGATIVES | words("Creatinina Hemoglobina Ferritina Potasio Sodio Urea Colesterol Triglicéridos Leucocitos Plaquetas Glucemia Glucosa Bilirrubina Albúmina Troponina Lactato Calcio Magnesio")

TITLES = [
    "Sr", "Sra", "Srta", "Sres", "D", "Dña", "Dª", "Don", "Doña", "señor", "señora",
    "señorita", "Dr", "Dra", "doctor", "doctora", "Lic", "Ldo", "Lda", "profesor",
    "profesora", "el doctor", "la doctora", "el señor", "la señora",
]

#: People named by their role or kin without a possessive, before a name set apart by a comma
#: ("la enfermera del consultorio, rocio,", "mi compañera, la yoana,"): see Locale.roles.
ROLES = (
    "compañero compañera compi jefe jefa encargado encargada dueño dueña enfermera enfermero "
    "médico médica medico medica doctora doctor profesora profesor profe tutora tutor vecino "
    "vecina amigo amiga novio novia pareja marido hijo hija madre padre abuela abuelo tía tío "
    "tia tio prima primo cuñado cuñada suegra suegro chica chico cuidadora cuidador casera casero "
    "supervisor supervisora responsable coordinadora coordinador trabajadora gestora gestor "
    "asesora asesor monitora monitor entrenador entrenadora auxiliar portero portera conserje"
).split()

RELATIONS = [
    "mi padre", "mi madre", "mi suegra", "mi suegro", "mi cuñada", "mi cuñado", "mi nuera", "mi yerno", "mi hijo", "mi hija", "mi hermano", "mi hermana", "mi marido",
    "mi esposo", "mi esposa", "mi mujer", "mi pareja", "mi abuelo", "mi abuela", "mi tío",
    "mi tía", "mi novio", "mi novia", "mi amigo", "mi amiga", "mi jefe", "mi jefa",
    "mi compañero", "mi compañera", "mi compañero de piso", "mi compañera de piso",
    "la madre de", "el padre de", "la mamá de", "el papá de", "la tutora de", "el tutor de", "mi supervisor", "mi supervisora", "mi médico",
    "mi médica", "mi abogado", "mi abogada", "mi casero", "mi casera", "mi vecino",
    "mi vecina", "mi asesor", "mi asesora", "mi cliente", "mi clienta", "nuestro cliente",
    "nuestra clienta", "nuestro hijo", "nuestra hija", "su hijo", "mis hijos", "mis hijas", "nuestros hijos", "nuestras hijas", "mis nietos", "sus hijos",
    "su hija", "el paciente", "la paciente", "el trabajador", "la trabajadora",
    "mi médico de cabecera", "mi responsable", "mi encargado", "mi encargada",
    # a school's staff, typed without accents too: "la profe dolores paz"
    "la profe", "el profe", "la profesora", "el profesor", "su tutora", "su tutor",
    "mi tio", "mi tia", "mi compañero de trabajo", "mi medico", "el dueño", "la dueña",
    # a workplace's boss named by the job ("el encargado, josé luis, me dijo"), a girl at a desk
    "el encargado", "la encargada", "el jefe", "la jefa", "el supervisor", "la supervisora",
    "una chica", "un chico", "una señora", "un señor",
    # a school's teacher in the regions' words: "la seño", "la andereño itsaso"
    "la seño", "el maestro", "la maestra", "la andereño", "el irakasle", "la irakasle",
    "mi ex",
    # a child named through the parent: "soy la madre de luna"
    "la madre de", "el padre de", "la mamá de", "el papá de",
]

PARTICLES = ["de", "del", "de la", "de los", "de las", "la", "las", "los", "y", "i", "da", "van", "von"]
INTROS = ["me llamo", "mi nombre es", "soy", "se llama", "Nombre:", "Paciente:", "Trabajador:",
          "Trabajadora:", "Firmado:", "Fdo.:", "Fdo.", "a nombre de",
          # someone named in passing: "un tal paco", "una chica llamada rosa"
          "un tal", "una tal", "llamado", "llamada", "se llamaba",
          # an account's holder
          "titular", "titular de la cuenta"]
GREETINGS = ["Hola", "Buenos días", "Buenas tardes", "Buenas noches", "Estimado", "Estimada",
             "Querido", "Querida"]
CLOSINGS = ["Saludos", "Un saludo", "Saludos cordiales", "Atentamente", "Cordialmente",
            "Muchas gracias", "Gracias", "Un abrazo", "Besos", "Grcs", "Grax", "Abrazos", "Bss", "Bsos",
            "Mil gracias", "Gracias de antemano", "Un beso", "Besitos", "Ciao", "Chao",
            "Muchas gracias de antemano", "Gracias mil", "Un saludo cordial", "Xx", "Xxx"]

ABBREVIATIONS = words(
    "Sr Sra Srta Sres D Dña Dr Dra Lic Ldo Lda Ud Uds Vd Vds Avda Av C Pza Pl núm nº no art "
    "arts pág págs tel tlf etc aprox ej p.ej admón dpto depto S.A S.L Cía izq dcha ene feb "
    "mar abr jun jul ago sep sept oct nov dic Fdo pta esc"
)

#: A form's keys and the kind of value after them ("Nombre: Lucía"), lower case.
FIELD_KEYS = {
    **dict.fromkeys(("nombre", "apellido", "apellidos", "nombre completo", "primer apellido",
                     "segundo apellido", "firma", "firmado", "apellidos y nombres",
                     "nombres y apellidos", "apellidos y nombre", "nombre y apellidos", "trabajador",
                     "trabajadora", "empleado", "empleada", "paciente", "residente"), "PERSON"),
    **dict.fromkeys(("dirección", "direccion", "domicilio", "código postal", "codigo postal"), "ADDRESS"),
    **dict.fromkeys(("ciudad", "localidad", "municipio", "lugar de nacimiento"), "LOCATION"),
    **dict.fromkeys(("empresa", "empleador", "colegio", "escuela"), "ORG"),
    **dict.fromkeys(("número de la seguridad social", "nº de la seguridad social", "n.º de la seguridad social",
                     "nss", "dni", "nie"), "ID"),
}

#: The country's public bodies by name: they name no one and stay as written ("Guardia Civil",
#: "Agentur für Arbeit", "Banque de France", "Belastingdienst").
PUBLIC_BODIES = (
    "Guardia Civil",
    "Policía Nacional",
    "Policía Local",
    "Mossos d'Esquadra",
    "Ertzaintza",
    "Banco de España",
    "Agencia Tributaria",
    "Seguridad Social",
    "Tesorería General de la Seguridad Social",
    "Instituto Nacional de la Seguridad Social",
    "Servicio Público de Empleo Estatal",
    "Defensor del Pueblo",
    "Tribunal Supremo",
    "Tribunal Constitucional",
    "Audiencia Nacional",
    "Inspección de Trabajo",
    "Dirección General de Tráfico",
    "Oficina de Atención al Usuario de Telecomunicaciones",
    "Agencia Española de Protección de Datos",
    "Ministerio de Sanidad",
    "Ministerio de Trabajo",
    "Ministerio de Consumo",
    "Correos",
    "Renfe",
)
