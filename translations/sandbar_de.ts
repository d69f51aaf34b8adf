<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>AgentHub</name>
    <message>
        <source>The Sandbar window closed before the call was approved.</source>
        <translation>Das Sandbar-Fenster wurde geschlossen, bevor der Aufruf freigegeben wurde.</translation>
    </message>
</context>
<context>
    <name>AgentLink</name>
    <message>
        <source>The call was cancelled before it was approved.</source>
        <translation>Der Aufruf wurde abgebrochen, bevor er freigegeben wurde.</translation>
    </message>
    <message>
        <source>This call needs approval in the Sandbar window, and the window is not running. Start Sandbar and call again, or change the agent policy (agent-policy.json).</source>
        <translation>Dieser Aufruf muss im Sandbar-Fenster freigegeben werden, aber das Fenster läuft nicht. Starten Sie Sandbar und rufen Sie erneut auf, oder ändern Sie die Agentenrichtlinie (agent-policy.json).</translation>
    </message>
    <message>
        <source>The Sandbar window closed before the call was approved.</source>
        <translation>Das Sandbar-Fenster wurde geschlossen, bevor der Aufruf freigegeben wurde.</translation>
    </message>
</context>
<context>
    <name>sandbar</name>
    <message>
        <source>No secret is stored in the keychain for this account.</source>
        <translation>Für dieses Konto ist kein Geheimnis im Schlüsselbund gespeichert.</translation>
    </message>
    <message>
        <source>The keychain refused access: %1</source>
        <translation>Der Schlüsselbund hat den Zugriff verweigert: %1</translation>
    </message>
    <message>
        <source>No keychain is available (%1). Sandbar keeps secrets only in the OS keychain and never in plain text: start a Secret Service such as gnome-keyring or KWallet and try again.</source>
        <translation>Kein Schlüsselbund verfügbar (%1). Sandbar speichert Geheimnisse nur im Schlüsselbund des Betriebssystems und niemals im Klartext: Starten Sie einen Secret Service wie gnome-keyring oder KWallet und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>Keychain error: %1</source>
        <translation>Schlüsselbund-Fehler: %1</translation>
    </message>
    <message>
        <source>Audit log: %1</source>
        <translation>Audit-Protokoll: %1</translation>
    </message>
    <message>
        <source>Cost ledger: %1</source>
        <translation>Kostenbuch: %1</translation>
    </message>
    <message>
        <source>Cannot open %1</source>
        <translation>%1 kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>%1 cannot be read and cannot be moved aside</source>
        <translation>%1 kann weder gelesen noch beiseitegelegt werden</translation>
    </message>
    <message>
        <source>%1 could not be read; it was moved to %2 and a new one was started.</source>
        <translation>%1 konnte nicht gelesen werden; die Datei wurde nach %2 verschoben und eine neue wurde angelegt.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a time: use ISO-8601 (2026-11-29T10:00Z) or an age such as 30m, 2h or 7d</source>
        <translation>&apos;%1&apos; ist keine Zeitangabe: Verwenden Sie ISO-8601 (2026-11-29T10:00Z) oder ein Alter wie 30m, 2h oder 7d</translation>
    </message>
    <message>
        <source>Manage AI-agent sandboxes</source>
        <translation>AI-Agent-Sandboxes verwalten</translation>
    </message>
    <message>
        <source>Keep every file Sandbar writes under DIR.</source>
        <translation>Alle Dateien, die Sandbar schreibt, unter DIR ablegen.</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Provider catalog</source>
        <translation>Anbieterkatalog</translation>
    </message>
    <message>
        <source>Your catalog corrections were not used: %1</source>
        <translation>Ihre Katalogkorrekturen wurden nicht verwendet: %1</translation>
    </message>
    <message>
        <source>%1 is in a read-only folder: it can be read, but nothing new can be saved in it.</source>
        <translation>%1 liegt in einem schreibgeschützten Ordner: Es kann gelesen, aber nichts Neues darin gespeichert werden.</translation>
    </message>
    <message>
        <source>Agents: %1 Calls that need approval are denied.</source>
        <translation>Agenten: %1 Aufrufe, die eine Freigabe brauchen, werden abgelehnt.</translation>
    </message>
    <message>
        <source>MCP over HTTP: %1</source>
        <translation>MCP über HTTP: %1</translation>
    </message>
    <message>
        <source>Show the options and exit (also -h; --help-all adds Qt&apos;s own options).</source>
        <translation>Die Optionen anzeigen und beenden (auch -h; --help-all zeigt zusätzlich die Optionen von Qt).</translation>
    </message>
    <message>
        <source>Show the version and exit (also -v).</source>
        <translation>Die Version anzeigen und beenden (auch -v).</translation>
    </message>
    <message>
        <source>Sandbar is a desktop application to create, watch and control sandboxed sessions for AI agents: local sandboxes, Docker and Podman containers, and cloud sandboxes. It shows live resource charts, takes file uploads, estimates costs, keeps an audit log, and asks before an agent connected over MCP does something the agent policy says needs approval. sandbarctl(1) drives the same sessions from the command line.</source>
        <translation>Sandbar ist eine Desktop-Anwendung, mit der sich abgeschottete Sitzungen für KI-Agenten erstellen, beobachten und steuern lassen: lokale Sandboxes, Docker- und Podman-Container sowie Cloud-Sandboxes. Sie zeigt Ressourcendiagramme in Echtzeit, nimmt Datei-Uploads an, schätzt Kosten, führt ein Audit-Protokoll und fragt nach, bevor ein über MCP verbundener Agent etwas tut, das laut Agenten-Richtlinie eine Freigabe braucht. sandbarctl(1) steuert dieselben Sitzungen über die Befehlszeile.</translation>
    </message>
    <message>
        <source>SSH asks</source>
        <translation>SSH fragt</translation>
    </message>
</context>
<context>
    <name>sandbar::AccountStore</name>
    <message>
        <source>&apos;%1&apos; is not a valid account name: use letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos; (at most 64, starting with a letter or digit)</source>
        <translation>&apos;%1&apos; ist kein gültiger Kontoname: Verwenden Sie Buchstaben, Ziffern, &apos;.&apos;, &apos;_&apos; und &apos;-&apos; (höchstens 64, beginnend mit einem Buchstaben oder einer Ziffer)</translation>
    </message>
    <message>
        <source>Unknown provider &apos;%1&apos;; known providers: %2</source>
        <translation>Unbekannter Anbieter &apos;%1&apos;; bekannte Anbieter: %2</translation>
    </message>
    <message>
        <source>%1 accounts have no setting &apos;%2&apos;</source>
        <translation>%1-Konten haben keine Einstellung &apos;%2&apos;</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is a secret and is kept only in the keychain</source>
        <translation>&apos;%1&apos; ist ein Geheimnis und wird nur im Schlüsselbund gespeichert</translation>
    </message>
    <message>
        <source>%1 accounts have no secret &apos;%2&apos;</source>
        <translation>%1-Konten haben kein Geheimnis &apos;%2&apos;</translation>
    </message>
    <message>
        <source>%1 accounts need &apos;%2&apos;</source>
        <translation>%1-Konten benötigen &apos;%2&apos;</translation>
    </message>
    <message>
        <source>An account named &apos;%1&apos; already exists</source>
        <translation>Ein Konto namens &apos;%1&apos; existiert bereits</translation>
    </message>
    <message>
        <source>No account named &apos;%1&apos;</source>
        <translation>Kein Konto namens &apos;%1&apos;</translation>
    </message>
    <message>
        <source>An account&apos;s provider cannot change; add a new account instead</source>
        <translation>Der Anbieter eines Kontos kann nicht geändert werden; fügen Sie stattdessen ein neues Konto hinzu</translation>
    </message>
    <message>
        <source>it holds binary data</source>
        <translation>sie enthält Binärdaten</translation>
    </message>
    <message>
        <source>it is not UTF-8 text</source>
        <translation>sie ist kein UTF-8-Text</translation>
    </message>
    <message>
        <source>line %1 is neither a [section] nor a key=value pair</source>
        <translation>Zeile %1 ist weder ein [Abschnitt] noch ein Paar Schlüssel=Wert</translation>
    </message>
    <message>
        <source>the version is not a number</source>
        <translation>die Version ist keine Zahl</translation>
    </message>
    <message>
        <source>account &apos;%1&apos; names no provider</source>
        <translation>Konto „%1“ nennt keinen Anbieter</translation>
    </message>
    <message>
        <source>it is not a valid settings file</source>
        <translation>sie ist keine gültige Einstellungsdatei</translation>
    </message>
    <message>
        <source>The settings file %1 could not be read (%2); it was kept as %3 and Sandbar started with empty settings.</source>
        <translation>Die Einstellungsdatei %1 konnte nicht gelesen werden (%2); sie wurde als %3 aufbewahrt, und Sandbar startete mit leeren Einstellungen.</translation>
    </message>
    <message>
        <source>The settings file %1 could not be read (%2) and could not be kept aside; Sandbar will not change it.</source>
        <translation>Die Einstellungsdatei %1 konnte nicht gelesen werden (%2) und ließ sich nicht beiseitelegen; Sandbar wird sie nicht ändern.</translation>
    </message>
    <message>
        <source>The settings file %1 has values Sandbar cannot use (%2); a copy was kept as %3.</source>
        <translation>Die Einstellungsdatei %1 enthält Werte, die Sandbar nicht verwenden kann (%2); eine Kopie wurde als %3 aufbewahrt.</translation>
    </message>
    <message>
        <source>The settings file %1 has values Sandbar cannot use (%2).</source>
        <translation>Die Einstellungsdatei %1 enthält Werte, die Sandbar nicht verwenden kann (%2).</translation>
    </message>
    <message>
        <source>The settings file %1 could not be written (a read-only folder or a full disk?); nothing was changed.</source>
        <translation>Die Einstellungsdatei %1 konnte nicht geschrieben werden (ein schreibgeschützter Ordner oder ein volles Laufwerk?); nichts wurde geändert.</translation>
    </message>
    <message>
        <source>The settings file %1 still has values Sandbar cannot use (%2); the copy made when they were found is %3.</source>
        <translation>Die Einstellungsdatei %1 enthält weiterhin Werte, die Sandbar nicht verwenden kann (%2); die Kopie, die beim Auffinden angelegt wurde, ist %3.</translation>
    </message>
</context>
<context>
    <name>sandbar::CopyJob</name>
    <message>
        <source>&apos;%1&apos; is not an absolute path in the session.</source>
        <translation>&apos;%1&apos; ist kein absoluter Pfad in der Sitzung.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an absolute local path.</source>
        <translation>&apos;%1&apos; ist kein absoluter lokaler Pfad.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; does not exist in session %2.</source>
        <translation>&apos;%1&apos; existiert nicht in Sitzung %2.</translation>
    </message>
    <message>
        <source>The tar stream cannot be read.</source>
        <translation>Der tar-Stream kann nicht gelesen werden.</translation>
    </message>
    <message>
        <source>The destination folder &apos;%1&apos; must exist.</source>
        <translation>Der Zielordner &apos;%1&apos; muss existieren.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a folder: a tar stream is extracted into a folder.</source>
        <translation>&apos;%1&apos; ist kein Ordner: Ein tar-Stream wird in einen Ordner entpackt.</translation>
    </message>
    <message>
        <source>No such local file or folder: %1</source>
        <translation>Keine solche lokale Datei bzw. kein solcher lokaler Ordner: %1</translation>
    </message>
    <message>
        <source>The provider is gone.</source>
        <translation>Der Anbieter ist nicht mehr vorhanden.</translation>
    </message>
    <message>
        <source>This provider cannot copy files.</source>
        <translation>Dieser Anbieter kann keine Dateien kopieren.</translation>
    </message>
    <message>
        <source>The copy was cancelled.</source>
        <translation>Das Kopieren wurde abgebrochen.</translation>
    </message>
</context>
<context>
    <name>sandbar::CostMeter</name>
    <message>
        <source>No catalog entry prices the provider &apos;%1&apos;.</source>
        <translation>Kein Katalogeintrag enthält Preise für den Anbieter &apos;%1&apos;.</translation>
    </message>
    <message>
        <source>The session&apos;s CPU and memory are not known, so its price is not either.</source>
        <translation>CPU und Arbeitsspeicher der Sitzung sind nicht bekannt, daher auch nicht ihr Preis.</translation>
    </message>
    <message>
        <source>Self-hosted: no provider bill (give the account a host price to count the machine&apos;s).</source>
        <translation>Selbst betrieben: keine Anbieterrechnung (geben Sie dem Konto einen Rechnerpreis, um die Kosten der Maschine zu zählen).</translation>
    </message>
    <message>
        <source>Self-hosted: the host&apos;s %1 USD/h, split by requested CPUs (%2 of %3).</source>
        <translation>Selbst betrieben: %1 USD/h des Rechners, nach angeforderten CPUs geteilt (%2 von %3).</translation>
    </message>
</context>
<context>
    <name>sandbar::DisconnectBanner</name>
    <message>
        <source>Reconnect</source>
        <translation>Neu verbinden</translation>
    </message>
</context>
<context>
    <name>sandbar::FieldDescriptor</name>
    <message>
        <source>%1 must be at least %2</source>
        <translation>%1 muss mindestens %2 sein</translation>
    </message>
    <message>
        <source>%1 must be at most %2</source>
        <translation>%1 darf höchstens %2 sein</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a whole number</source>
        <translation>„%1“ ist keine ganze Zahl</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a number</source>
        <translation>„%1“ ist keine Zahl</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a size such as 512M or 2G</source>
        <translation>„%1“ ist keine Größe wie 512M oder 2G</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a duration such as 90, 30m or 2h</source>
        <translation>„%1“ ist keine Dauer wie 90, 30m oder 2h</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not KEY=VALUE</source>
        <translation>„%1“ ist nicht KEY=VALUE</translation>
    </message>
    <message>
        <source>host folder &apos;%1&apos; does not exist</source>
        <translation>Ordner „%1“ gibt es auf diesem Rechner nicht</translation>
    </message>
    <message>
        <source>a value is required</source>
        <translation>ein Wert ist nötig</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a URL such as unix:///var/run/docker.sock or https://host</source>
        <translation>„%1“ ist keine URL wie unix:///var/run/docker.sock oder https://host</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not yes or no</source>
        <translation>„%1“ ist weder yes noch no</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not one of %2</source>
        <translation>„%1“ ist keins von %2</translation>
    </message>
    <message>
        <source>%1 is not a number</source>
        <translation>%1 ist keine Zahl</translation>
    </message>
    <message>
        <source>%1 has an unknown value</source>
        <translation>%1 hat einen unbekannten Wert</translation>
    </message>
    <message>
        <source>%1: at most %2 here</source>
        <translation>%1: hier höchstens %2</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an option here</source>
        <translation>„%1“ ist hier keine Option</translation>
    </message>
    <message>
        <source>%1 is given more than once</source>
        <translation>%1 ist mehrfach angegeben</translation>
    </message>
    <message>
        <source>%1 is required</source>
        <translation>%1 ist erforderlich</translation>
    </message>
    <message>
        <source>Labels</source>
        <translation>Labels</translation>
    </message>
    <message>
        <source>KEY=VALUE, one a line; at most %1</source>
        <translation>KEY=VALUE, eine Angabe pro Zeile; höchstens %1</translation>
    </message>
    <message>
        <source>KEY=VALUE, one a line</source>
        <translation>KEY=VALUE, eine Angabe pro Zeile</translation>
    </message>
</context>
<context>
    <name>sandbar::ForkPtyChannel</name>
    <message>
        <source>The terminal program is already running.</source>
        <translation>Das Terminalprogramm läuft bereits.</translation>
    </message>
    <message>
        <source>Could not open a pseudo-terminal: %1</source>
        <translation>Pseudo-Terminal konnte nicht geöffnet werden: %1</translation>
    </message>
    <message>
        <source>Could not start the terminal reader: %1</source>
        <translation>Terminal-Leser konnte nicht gestartet werden: %1</translation>
    </message>
    <message>
        <source>Lost track of the terminal program.</source>
        <translation>Das Terminalprogramm ist nicht mehr auffindbar.</translation>
    </message>
</context>
<context>
    <name>sandbar::GpuRequest</name>
    <message>
        <source>&apos;%1&apos; is not all, a number of GPUs or a comma-separated list of GPU UUIDs (GPU-..., MIG-...)</source>
        <translation>„%1“ ist weder all noch eine Anzahl GPUs noch eine durch Kommas getrennte Liste von GPU-UUIDs (GPU-..., MIG-...)</translation>
    </message>
    <message>
        <source>%1 GPUs is more than %2; use all</source>
        <translation>%1 GPUs sind mehr als %2; verwenden Sie all</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a GPU UUID (GPU-..., MIG-..., as nvidia-smi -L prints them) or index</source>
        <translation>„%1“ ist keine GPU-UUID (GPU-..., MIG-..., wie nvidia-smi -L sie ausgibt) und kein Index</translation>
    </message>
</context>
<context>
    <name>sandbar::McpHttpEndpoint</name>
    <message>
        <source>The token cannot be kept in the keychain: %1</source>
        <translation>Das Token kann nicht im Schlüsselbund gespeichert werden: %1</translation>
    </message>
</context>
<context>
    <name>sandbar::MountSpec</name>
    <message>
        <source>&apos;%1&apos; is not HOST:PATH or HOST:PATH:ro</source>
        <translation>&apos;%1&apos; ist weder HOST:PATH noch HOST:PATH:ro</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an absolute path in the session</source>
        <translation>&apos;%1&apos; ist kein absoluter Pfad in der Sitzung</translation>
    </message>
</context>
<context>
    <name>sandbar::PartialDownloads</name>
    <message>
        <source>Could not write in %1.</source>
        <translation>In %1 konnte nicht geschrieben werden.</translation>
    </message>
    <message>
        <source>%1 exists and is not a folder.</source>
        <translation>%1 existiert und ist kein Ordner.</translation>
    </message>
    <message>
        <source>%1 exists and is a folder.</source>
        <translation>%1 existiert und ist ein Ordner.</translation>
    </message>
    <message>
        <source>Could not move the downloaded %1 into place as %2.</source>
        <translation>Die heruntergeladene Datei %1 konnte nicht als %2 an ihren Platz verschoben werden.</translation>
    </message>
</context>
<context>
    <name>sandbar::PortSpec</name>
    <message>
        <source>&apos;%1&apos; is not PORT, HOST:PORT or either with /tcp or /udp</source>
        <translation>&apos;%1&apos; ist weder PORT noch HOST:PORT, jeweils optional mit /tcp oder /udp</translation>
    </message>
    <message>
        <source>port %1 is not between 1 and 65535</source>
        <translation>Port %1 liegt nicht zwischen 1 und 65535</translation>
    </message>
</context>
<context>
    <name>sandbar::Provider</name>
    <message>
        <source>%1 exited with status %2</source>
        <translation>%1 wurde mit Status %2 beendet</translation>
    </message>
    <message>
        <source>Refusing to delete &apos;%1&apos;</source>
        <translation>Löschen von &apos;%1&apos; wird verweigert</translation>
    </message>
    <message>
        <source>%1 does not support %2</source>
        <translation>%1 unterstützt %2 nicht</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a folder (%2)</source>
        <translation>&apos;%1&apos; ist kein Ordner (%2)</translation>
    </message>
    <message>
        <source>Listing &apos;%1&apos; failed: %2</source>
        <translation>Auflisten von &apos;%1&apos; fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>The file listing of &apos;%1&apos; is unreadable.</source>
        <translation>Die Dateiliste von &apos;%1&apos; ist unlesbar.</translation>
    </message>
    <message>
        <source>Looking at &apos;%1&apos; failed: %2</source>
        <translation>Prüfen von &apos;%1&apos; fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>A move needs absolute paths (&apos;%1&apos; to &apos;%2&apos;)</source>
        <translation>Ein Verschieben braucht absolute Pfade (&apos;%1&apos; nach &apos;%2&apos;)</translation>
    </message>
    <message>
        <source>Refusing to move &apos;/&apos;</source>
        <translation>&apos;/&apos; wird nicht verschoben</translation>
    </message>
    <message>
        <source>&apos;%1&apos; and its new name are the same</source>
        <translation>&apos;%1&apos; und der neue Name sind gleich</translation>
    </message>
    <message>
        <source>&apos;%1&apos; cannot move into itself</source>
        <translation>&apos;%1&apos; kann nicht in sich selbst verschoben werden</translation>
    </message>
    <message>
        <source>Permissions need an absolute path (&apos;%1&apos;)</source>
        <translation>Berechtigungen brauchen einen absoluten Pfad (&apos;%1&apos;)</translation>
    </message>
    <message>
        <source>%1 is not a file mode (0000 to 7777)</source>
        <translation>%1 ist kein Dateimodus (0000 bis 7777)</translation>
    </message>
</context>
<context>
    <name>sandbar::SessionRegistry</name>
    <message>
        <source>Account &apos;%1&apos; uses provider &apos;%2&apos;, which this build of Sandbar does not have</source>
        <translation>Konto &apos;%1&apos; verwendet den Anbieter &apos;%2&apos;, den dieser Build von Sandbar nicht enthält</translation>
    </message>
    <message>
        <source>No account named &apos;%1&apos;</source>
        <translation>Kein Konto namens &apos;%1&apos;</translation>
    </message>
    <message>
        <source>No session &apos;%1&apos; in account &apos;%2&apos;</source>
        <translation>Keine Sitzung &apos;%1&apos; im Konto &apos;%2&apos;</translation>
    </message>
    <message>
        <source>A session reference is empty; use ACCOUNT/ID</source>
        <translation>Eine Sitzungsreferenz ist leer; verwenden Sie ACCOUNT/ID</translation>
    </message>
    <message>
        <source>No account named &apos;%1&apos; (in &apos;%2&apos;)</source>
        <translation>Kein Konto namens &apos;%1&apos; (in &apos;%2&apos;)</translation>
    </message>
    <message>
        <source>&apos;%1&apos; names no session; use ACCOUNT/ID</source>
        <translation>&apos;%1&apos; bezeichnet keine Sitzung; verwenden Sie ACCOUNT/ID</translation>
    </message>
    <message>
        <source>No session &apos;%1&apos;: there are no accounts</source>
        <translation>Keine Sitzung &apos;%1&apos;: Es gibt keine Konten</translation>
    </message>
    <message>
        <source>&apos;%1&apos; matches several sessions: %2</source>
        <translation>&apos;%1&apos; passt auf mehrere Sitzungen: %2</translation>
    </message>
    <message>
        <source>No session matches &apos;%1&apos;</source>
        <translation>Keine Sitzung passt auf &apos;%1&apos;</translation>
    </message>
    <message>
        <source> (unreachable: %1)</source>
        <translation> (nicht erreichbar: %1)</translation>
    </message>
</context>
<context>
    <name>sandbar::TerminalFindBar</name>
    <message>
        <source>Match case</source>
        <translation>Groß-/Kleinschreibung beachten</translation>
    </message>
    <message>
        <source>Find in scrollback</source>
        <translation>Im Verlauf suchen</translation>
    </message>
    <message>
        <source>Previous</source>
        <translation>Zurück</translation>
    </message>
    <message>
        <source>Previous match (Shift+Enter)</source>
        <translation>Vorheriger Treffer (Umschalt+Eingabe)</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>Weiter</translation>
    </message>
    <message>
        <source>Next match (Enter)</source>
        <translation>Nächster Treffer (Eingabe)</translation>
    </message>
    <message>
        <source>Close (Escape)</source>
        <translation>Schließen (Escape)</translation>
    </message>
    <message>
        <source>Find:</source>
        <translation>Suchen:</translation>
    </message>
    <message>
        <source>No match</source>
        <translation>Kein Treffer</translation>
    </message>
</context>
<context>
    <name>sandbar::TerminalView</name>
    <message>
        <source>Paste several lines?</source>
        <translation>Mehrere Zeilen einfügen?</translation>
    </message>
    <message numerus="yes">
        <source>You are pasting %n line(s). The program in this terminal will receive them as if typed, and each line may run as a command.</source>
        <translation>
            <numerusform>Sie fügen %n Zeile ein. Das Programm in diesem Terminal empfängt sie wie eingetippt, und sie kann als Befehl ausgeführt werden.</numerusform>
            <numerusform>Sie fügen %n Zeilen ein. Das Programm in diesem Terminal empfängt sie wie eingetippt, und jede Zeile kann als Befehl ausgeführt werden.</numerusform>
        </translation>
    </message>
    <message>
        <source>Paste</source>
        <translation>Einfügen</translation>
    </message>
    <message>
        <source>The session ended (exit code %1).</source>
        <translation>Die Sitzung wurde beendet (Exit-Code %1).</translation>
    </message>
    <message>
        <source>The connection to the session was lost: %1</source>
        <translation>Die Verbindung zur Sitzung wurde unterbrochen: %1</translation>
    </message>
    <message>
        <source>The connection to the session was closed.</source>
        <translation>Die Verbindung zur Sitzung wurde geschlossen.</translation>
    </message>
    <message>
        <source>Reconnect</source>
        <translation>Neu verbinden</translation>
    </message>
    <message>
        <source>Open Link</source>
        <translation>Link öffnen</translation>
    </message>
    <message>
        <source>Copy Link Address</source>
        <translation>Link-Adresse kopieren</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Select All</source>
        <translation>Alles auswählen</translation>
    </message>
    <message>
        <source>Find…</source>
        <translation>Suchen…</translation>
    </message>
    <message>
        <source>Clear Scrollback</source>
        <translation>Verlauf löschen</translation>
    </message>
</context>
<context>
    <name>sandbar::catalog</name>
    <message>
        <source>%1: figure has no source</source>
        <translation>%1: Angabe hat keine Quelle</translation>
    </message>
    <message>
        <source>%1: unknown source &apos;%2&apos;</source>
        <translation>%1: unbekannte Quelle &apos;%2&apos;</translation>
    </message>
    <message>
        <source>%1: figure has no date</source>
        <translation>%1: Angabe hat kein Datum</translation>
    </message>
    <message>
        <source>%1: value must be a number or null</source>
        <translation>%1: Wert muss eine Zahl oder null sein</translation>
    </message>
    <message>
        <source>%1: unknown cpu rule &apos;%2&apos;</source>
        <translation>%1: unbekannte cpu-Regel &apos;%2&apos;</translation>
    </message>
    <message>
        <source>%1: unknown memory rule &apos;%2&apos;</source>
        <translation>%1: unbekannte memory-Regel &apos;%2&apos;</translation>
    </message>
    <message>
        <source>%1: unknown idle rule &apos;%2&apos;</source>
        <translation>%1: unbekannte idle-Regel &apos;%2&apos;</translation>
    </message>
    <message>
        <source>%1: granularity_s must be at least 1</source>
        <translation>%1: granularity_s muss mindestens 1 sein</translation>
    </message>
    <message>
        <source>%1: vcpus_per_core must be positive</source>
        <translation>%1: vcpus_per_core muss positiv sein</translation>
    </message>
    <message>
        <source>%1: cpu and memory must both be &apos;tier&apos; or neither</source>
        <translation>%1: cpu und memory müssen entweder beide &apos;tier&apos; sein oder keines von beiden</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>unbegrenzt</translation>
    </message>
    <message>
        <source>schema must be %1</source>
        <translation>schema muss %1 sein</translation>
    </message>
    <message>
        <source>source &apos;%1&apos; needs a title and a date</source>
        <translation>Quelle &apos;%1&apos; benötigt einen Titel und ein Datum</translation>
    </message>
    <message>
        <source>providers must be an array</source>
        <translation>providers muss ein Array sein</translation>
    </message>
    <message>
        <source>a provider has no id</source>
        <translation>ein Anbieter hat keine id</translation>
    </message>
    <message>
        <source>%1: duplicate id</source>
        <translation>%1: doppelte id</translation>
    </message>
    <message>
        <source>%1: no name</source>
        <translation>%1: kein Name</translation>
    </message>
    <message>
        <source>%1: kind must be one of %2</source>
        <translation>%1: kind muss einer der folgenden Werte sein: %2</translation>
    </message>
    <message>
        <source>%1: unknown isolation &apos;%2&apos;</source>
        <translation>%1: unbekannte Isolation &apos;%2&apos;</translation>
    </message>
    <message>
        <source>%1: billing rule has no source</source>
        <translation>%1: Abrechnungsregel hat keine Quelle</translation>
    </message>
    <message>
        <source>provider &apos;%1&apos; is missing</source>
        <translation>Anbieter &apos;%1&apos; fehlt</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>%1 is not valid JSON at offset %2: %3</source>
        <translation>%1 ist an Position %2 kein gültiges JSON: %3</translation>
    </message>
    <message>
        <source>%1 must hold a JSON object</source>
        <translation>%1 muss ein JSON-Objekt enthalten</translation>
    </message>
    <message>
        <source>%1 has schema %2; this Sandbar reads schema %3</source>
        <translation>%1 hat das Schema %2; dieses Sandbar liest Schema %3</translation>
    </message>
    <message>
        <source>%1: providers must be an array</source>
        <translation>%1: providers muss ein Array sein</translation>
    </message>
    <message>
        <source>%1: every provider needs an id</source>
        <translation>%1: jeder Anbieter benötigt eine id</translation>
    </message>
    <message>
        <source>Your corrections in %1</source>
        <translation>Ihre Korrekturen in %1</translation>
    </message>
    <message>
        <source>GPU offering unknown</source>
        <translation>GPU-Angebot unbekannt</translation>
    </message>
    <message>
        <source>no GPUs offered</source>
        <translation>keine GPUs angeboten</translation>
    </message>
    <message>
        <source>GPU type %1 not offered (offers %2)</source>
        <translation>GPU-Typ %1 nicht angeboten (angeboten: %2)</translation>
    </message>
    <message>
        <source>no price known for GPU %1</source>
        <translation>kein Preis für GPU %1 bekannt</translation>
    </message>
    <message>
        <source>needs more than the largest fixed size offers</source>
        <translation>benötigt mehr, als die größte feste Größe bietet</translation>
    </message>
    <message>
        <source>no price known for size %1</source>
        <translation>kein Preis für Größe %1 bekannt</translation>
    </message>
    <message>
        <source>billed as fixed size %1 (%2 vCPU, %3 GiB)</source>
        <translation>abgerechnet als feste Größe %1 (%2 vCPU, %3 GiB)</translation>
    </message>
    <message>
        <source>memory is tied to CPU (%1 GiB per vCPU): billed as %2 vCPU, %3 GiB</source>
        <translation>Arbeitsspeicher ist an die CPU gebunden (%1 GiB pro vCPU): abgerechnet als %2 vCPU, %3 GiB</translation>
    </message>
    <message>
        <source>no price known for CPU</source>
        <translation>kein Preis für CPU bekannt</translation>
    </message>
    <message>
        <source>no price known for memory</source>
        <translation>kein Preis für Arbeitsspeicher bekannt</translation>
    </message>
    <message>
        <source>no price known</source>
        <translation>kein Preis bekannt</translation>
    </message>
    <message>
        <source>allocated</source>
        <translation>zugewiesen</translation>
    </message>
    <message>
        <source>active CPU</source>
        <translation>aktive CPU</translation>
    </message>
    <message>
        <source>max of request and use</source>
        <translation>Maximum aus Anforderung und Nutzung</translation>
    </message>
    <message>
        <source>fixed size</source>
        <translation>feste Größe</translation>
    </message>
    <message>
        <source>not billed</source>
        <translation>nicht abgerechnet</translation>
    </message>
    <message>
        <source>a %1 h session exceeds the longest plan limit (%2 h on %3)</source>
        <translation>eine Sitzung von %1 h überschreitet das längste Tarif-Limit (%2 h bei %3)</translation>
    </message>
    <message>
        <source>needs %1 vCPUs; at most %2 (%3)</source>
        <translation>benötigt %1 vCPUs; höchstens %2 (%3)</translation>
    </message>
    <message>
        <source>needs %1 GiB memory; at most %2 (%3)</source>
        <translation>benötigt %1 GiB Arbeitsspeicher; höchstens %2 (%3)</translation>
    </message>
    <message>
        <source>session limit of plan %1 unknown</source>
        <translation>Sitzungslimit des Tarifs %1 unbekannt</translation>
    </message>
    <message>
        <source>not a sandbox runtime (%1): costs are those of the provider it drives</source>
        <translation>keine Sandbox-Laufzeitumgebung (%1): Die Kosten sind die des Anbieters, den sie steuert</translation>
    </message>
    <message>
        <source>GPU availability depends on the host</source>
        <translation>GPU-Verfügbarkeit hängt vom Host ab</translation>
    </message>
    <message>
        <source>self-hosted: runs on your own hardware; no provider charges</source>
        <translation>selbst gehostet: läuft auf Ihrer eigenen Hardware; keine Anbietergebühren</translation>
    </message>
    <message>
        <source>billing granularity not published; billed exactly</source>
        <translation>Abrechnungsintervall nicht veröffentlicht; exakt abgerechnet</translation>
    </message>
    <message>
        <source>%1 × %2 h × $%3</source>
        <translation>%1 × %2 h × $%3</translation>
    </message>
    <message>
        <source>core-h</source>
        <translation>Kern-h</translation>
    </message>
    <message>
        <source>vCPU-h</source>
        <translation>vCPU-h</translation>
    </message>
    <message>
        <source>included in the GPU price</source>
        <translation>im GPU-Preis enthalten</translation>
    </message>
    <message>
        <source>%1 %2 × $%3 (%4)</source>
        <translation>%1 %2 × $%3 (%4)</translation>
    </message>
    <message>
        <source>%1 GiB-h × $%2</source>
        <translation>%1 GiB-h × $%2</translation>
    </message>
    <message>
        <source>%1 × %2 × %3 h × $%4</source>
        <translation>%1 × %2 × %3 h × $%4</translation>
    </message>
    <message>
        <source>%1 GiB-h on standby × $%2</source>
        <translation>%1 GiB-h im Standby × $%2</translation>
    </message>
    <message>
        <source>paused or on standby: no compute charge</source>
        <translation>pausiert oder im Standby: keine Rechenkosten</translation>
    </message>
    <message>
        <source>no pause: %1 h billed as running with an idle CPU</source>
        <translation>keine Pause: %1 h als laufend mit CPU im Leerlauf abgerechnet</translation>
    </message>
    <message>
        <source>cost while idle unknown; not included</source>
        <translation>Kosten im Leerlauf unbekannt; nicht enthalten</translation>
    </message>
    <message>
        <source>storage price unknown; not included</source>
        <translation>Speicherpreis unbekannt; nicht enthalten</translation>
    </message>
    <message>
        <source>%1 × $%2</source>
        <translation>%1 × $%2</translation>
    </message>
    <message>
        <source>per-create price unknown; not included</source>
        <translation>Preis pro Erstellung unbekannt; nicht enthalten</translation>
    </message>
    <message>
        <source>%1 GB × $%2</source>
        <translation>%1 GB × $%2</translation>
    </message>
    <message>
        <source>data transfer price unknown; not included</source>
        <translation>Preis für Datenübertragung unbekannt; nicht enthalten</translation>
    </message>
    <message>
        <source>free credit used up</source>
        <translation>Freiguthaben aufgebraucht</translation>
    </message>
    <message>
        <source>$%1 a month</source>
        <translation>$%1 pro Monat</translation>
    </message>
    <message>
        <source>$%1 once</source>
        <translation>$%1 einmalig</translation>
    </message>
    <message>
        <source>plan %1</source>
        <translation>Tarif %1</translation>
    </message>
    <message>
        <source>fee of plan %1 unknown; not included</source>
        <translation>Gebühr des Tarifs %1 unbekannt; nicht enthalten</translation>
    </message>
</context>
<context>
    <name>sandbar::catalog::Catalog</name>
    <message>
        <source>Invalid catalog: %1</source>
        <translation>Ungültiger Katalog: %1</translation>
    </message>
    <message>
        <source>Catalog is not valid JSON at offset %1: %2</source>
        <translation>Der Katalog ist an Position %1 kein gültiges JSON: %2</translation>
    </message>
    <message>
        <source>Catalog must be a JSON object</source>
        <translation>Der Katalog muss ein JSON-Objekt sein</translation>
    </message>
    <message>
        <source>The built-in provider catalog is missing</source>
        <translation>Der integrierte Anbieterkatalog fehlt</translation>
    </message>
    <message>
        <source>%1 was ignored: %2</source>
        <translation>%1 wurde ignoriert: %2</translation>
    </message>
</context>
<context>
    <name>sandbar::cli</name>
    <message>
        <source>NAME</source>
        <translation>NAME</translation>
    </message>
    <message>
        <source>PROVIDER</source>
        <translation>ANBIETER</translation>
    </message>
    <message>
        <source>SETTINGS</source>
        <translation>EINSTELLUNGEN</translation>
    </message>
    <message>
        <source>accounts add needs --provider (%1)</source>
        <translation>accounts add benötigt --provider (%1)</translation>
    </message>
    <message>
        <source>Unknown provider &apos;%1&apos;; known providers: %2</source>
        <translation>Unbekannter Anbieter &apos;%1&apos;; bekannte Anbieter: %2</translation>
    </message>
    <message>
        <source>usage: accounts add NAME --provider PROVIDER [options]</source>
        <translation>Aufruf: accounts add NAME --provider PROVIDER [Optionen]</translation>
    </message>
    <message>
        <source>Environment variable %1 (for %2) is not set</source>
        <translation>Umgebungsvariable %1 (für %2) ist nicht gesetzt</translation>
    </message>
    <message>
        <source>usage: accounts remove NAME</source>
        <translation>Aufruf: accounts remove NAME</translation>
    </message>
    <message>
        <source>usage: accounts check NAME</source>
        <translation>Aufruf: accounts check NAME</translation>
    </message>
    <message>
        <source>No account named &apos;%1&apos;</source>
        <translation>Kein Konto namens &apos;%1&apos;</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1: ok, %2 %3 (API %4) at %5</source>
        <translation>%1: ok, %2 %3 (API %4) unter %5</translation>
    </message>
    <message>
        <source>  warning: %1</source>
        <translation>  Warnung: %1</translation>
    </message>
    <message>
        <source>usage: accounts list</source>
        <translation>Aufruf: accounts list</translation>
    </message>
    <message>
        <source>unknown accounts subcommand &apos;%1&apos;</source>
        <translation>unbekannter accounts-Unterbefehl &apos;%1&apos;</translation>
    </message>
    <message>
        <source>usage: audit [--since TIME] [--account NAME] [--session ID] [--action NAME] [--grep TEXT] [--limit N]</source>
        <translation>Aufruf: audit [--since TIME] [--account NAME] [--session ID] [--action NAME] [--grep TEXT] [--limit N]</translation>
    </message>
    <message>
        <source>unknown action &apos;%1&apos; (one of: %2)</source>
        <translation>unbekannte Aktion &apos;%1&apos; (eine von: %2)</translation>
    </message>
    <message>
        <source>--limit needs a positive number</source>
        <translation>--limit benötigt eine positive Zahl</translation>
    </message>
    <message>
        <source>TIME</source>
        <translation>ZEIT</translation>
    </message>
    <message>
        <source>ACCOUNT</source>
        <translation>KONTO</translation>
    </message>
    <message>
        <source>SESSION</source>
        <translation>SITZUNG</translation>
    </message>
    <message>
        <source>ACTION</source>
        <translation>AKTION</translation>
    </message>
    <message>
        <source>OUTCOME</source>
        <translation>ERGEBNIS</translation>
    </message>
    <message>
        <source>DETAIL</source>
        <translation>DETAIL</translation>
    </message>
    <message>
        <source>stop sessions</source>
        <translation>Sitzungen stoppen</translation>
    </message>
    <message>
        <source>warn</source>
        <translation>warnen</translation>
    </message>
    <message>
        <source>MONTHLY</source>
        <translation>MONATLICH</translation>
    </message>
    <message>
        <source>SPENT</source>
        <translation>AUSGEGEBEN</translation>
    </message>
    <message>
        <source>USED</source>
        <translation>GENUTZT</translation>
    </message>
    <message>
        <source>AT 100 %</source>
        <translation>BEI 100 %</translation>
    </message>
    <message>
        <source>usage: budget [ACCOUNT [USD|none] [--stop|--no-stop]]</source>
        <translation>Aufruf: budget [ACCOUNT [USD|none] [--stop|--no-stop]]</translation>
    </message>
    <message>
        <source>Account &apos;%1&apos; has no budget</source>
        <translation>Konto &apos;%1&apos; hat kein Budget</translation>
    </message>
    <message>
        <source>a budget is a positive amount of USD a month, or &apos;none&apos;</source>
        <translation>ein Budget ist ein positiver Betrag in USD pro Monat oder &apos;none&apos;</translation>
    </message>
    <message>
        <source>self-hosted</source>
        <translation>selbst gehostet</translation>
    </message>
    <message>
        <source>allocated</source>
        <translation>zugewiesen</translation>
    </message>
    <message>
        <source>active CPU</source>
        <translation>aktive CPU</translation>
    </message>
    <message>
        <source>max(request,use)</source>
        <translation>max(Anforderung,Nutzung)</translation>
    </message>
    <message>
        <source>fixed sizes</source>
        <translation>feste Größen</translation>
    </message>
    <message>
        <source>memory only</source>
        <translation>nur Arbeitsspeicher</translation>
    </message>
    <message>
        <source>, per minute</source>
        <translation>, pro Minute</translation>
    </message>
    <message>
        <source>, per second</source>
        <translation>, pro Sekunde</translation>
    </message>
    <message>
        <source>, %1 GiB/vCPU</source>
        <translation>, %1 GiB/vCPU</translation>
    </message>
    <message>
        <source>, core = %1 vCPU</source>
        <translation>, Kern = %1 vCPU</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keins</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>unbegrenzt</translation>
    </message>
    <message>
        <source>%1 needs a number of at least 0, not &apos;%2&apos;</source>
        <translation>%1 benötigt eine Zahl von mindestens 0, nicht &apos;%2&apos;</translation>
    </message>
    <message>
        <source>usage: catalog [--json]</source>
        <translation>Aufruf: catalog [--json]</translation>
    </message>
    <message>
        <source>/core</source>
        <translation>/Kern</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>ISOLATION</source>
        <translation>ISOLATION</translation>
    </message>
    <message>
        <source>COLD START</source>
        <translation>KALTSTART</translation>
    </message>
    <message>
        <source>MAX SESSION</source>
        <translation>MAX. SITZUNG</translation>
    </message>
    <message>
        <source>$/vCPU-h</source>
        <translation>$/vCPU-h</translation>
    </message>
    <message>
        <source>$/GiB-h</source>
        <translation>$/GiB-h</translation>
    </message>
    <message>
        <source>GPU $/h</source>
        <translation>GPU $/h</translation>
    </message>
    <message>
        <source>BILLING</source>
        <translation>ABRECHNUNG</translation>
    </message>
    <message>
        <source>Figures with sources and dates: sandbarctl --json catalog. Corrections: %1/catalog.json</source>
        <translation>Angaben mit Quellen und Daten: sandbarctl --json catalog. Korrekturen: %1/catalog.json</translation>
    </message>
    <message>
        <source>usage: compare --vcpus N --memory-gib N --hours N [--cpu-busy FRACTION] [--session-hours N] [--storage-gib N] [--gpu TYPE] [--gpus N] [--idle-hours N] [--sessions N] [--egress-gb N] [--free-credit]</source>
        <translation>Aufruf: compare --vcpus N --memory-gib N --hours N [--cpu-busy FRACTION] [--session-hours N] [--storage-gib N] [--gpu TYPE] [--gpus N] [--idle-hours N] [--sessions N] [--egress-gb N] [--free-credit]</translation>
    </message>
    <message>
        <source>compare needs %1; %2</source>
        <translation>compare benötigt %1; %2</translation>
    </message>
    <message>
        <source>--gpus needs a whole number of at least 1</source>
        <translation>--gpus benötigt eine ganze Zahl von mindestens 1</translation>
    </message>
    <message>
        <source>--gpus needs --gpu TYPE</source>
        <translation>--gpus benötigt --gpu TYPE</translation>
    </message>
    <message>
        <source>Estimated USD a month (%1 vCPU, %2 GiB, %3 h running)</source>
        <translation>Geschätzte USD pro Monat (%1 vCPU, %2 GiB, %3 h Laufzeit)</translation>
    </message>
    <message>
        <source>TOTAL</source>
        <translation>GESAMT</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>MEMORY</source>
        <translation>ARBEITSSPEICHER</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>OTHER</source>
        <translation>SONSTIGES</translation>
    </message>
    <message>
        <source>PLAN</source>
        <translation>TARIF</translation>
    </message>
    <message>
        <source>EXCLUDED BECAUSE</source>
        <translation>AUSGESCHLOSSEN WEIL</translation>
    </message>
    <message>
        <source>Notes:</source>
        <translation>Hinweise:</translation>
    </message>
    <message>
        <source>usage: sessions create --account NAME</source>
        <translation>Aufruf: sessions create --account NAME</translation>
    </message>
    <message>
        <source>%1 needs a value</source>
        <translation>%1 benötigt einen Wert</translation>
    </message>
    <message>
        <source>usage: exec REF -- CMD [ARGS...]</source>
        <translation>Aufruf: exec REF -- CMD [ARGS...]</translation>
    </message>
    <message>
        <source>usage: shell REF</source>
        <translation>Aufruf: shell REF</translation>
    </message>
    <message>
        <source>usage: cp SRC REF:DEST | cp REF:SRC DEST (as docker cp; - is a tar on stdin or stdout)</source>
        <translation>Aufruf: cp SRC REF:DEST | cp REF:SRC DEST (wie docker cp; - ist ein tar auf stdin oder stdout)</translation>
    </message>
    <message>
        <source>cp copies between this machine and a session; both sides name a session</source>
        <translation>cp kopiert zwischen diesem Rechner und einer Sitzung; beide Seiten bezeichnen eine Sitzung</translation>
    </message>
    <message>
        <source>cp needs one side written REF:PATH</source>
        <translation>cp benötigt eine Seite in der Form REF:PATH</translation>
    </message>
    <message>
        <source>Cannot read the tar from stdin.</source>
        <translation>Das tar von stdin kann nicht gelesen werden.</translation>
    </message>
    <message>
        <source>Cannot keep the tar from stdin: %1</source>
        <translation>Das tar von stdin kann nicht zwischengespeichert werden: %1</translation>
    </message>
    <message>
        <source>cp REF:SRC needs a path in the session</source>
        <translation>cp REF:SRC benötigt einen Pfad in der Sitzung</translation>
    </message>
    <message>
        <source>Cannot write to stdout.</source>
        <translation>In stdout kann nicht geschrieben werden.</translation>
    </message>
    <message>
        <source>usage: ls REF:PATH</source>
        <translation>Aufruf: ls REF:PATH</translation>
    </message>
    <message>
        <source> (orphan)</source>
        <translation> (verwaist)</translation>
    </message>
    <message>
        <source> (adopted)</source>
        <translation> (übernommen)</translation>
    </message>
    <message>
        <source> (not Sandbar&apos;s)</source>
        <translation> (nicht von Sandbar)</translation>
    </message>
    <message>
        <source>REF</source>
        <translation>REF</translation>
    </message>
    <message>
        <source>STATE</source>
        <translation>STATUS</translation>
    </message>
    <message>
        <source>IMAGE</source>
        <translation>IMAGE</translation>
    </message>
    <message>
        <source>CREATED</source>
        <translation>ERSTELLT</translation>
    </message>
    <message>
        <source>EXPIRES</source>
        <translation>LÄUFT AB</translation>
    </message>
    <message>
        <source>usage: sessions create --account NAME [options of its provider]</source>
        <translation>Aufruf: sessions create --account NAME [Optionen des Anbieters]</translation>
    </message>
    <message>
        <source>Unknown provider &apos;%1&apos;</source>
        <translation>Unbekannter Anbieter &apos;%1&apos;</translation>
    </message>
    <message>
        <source>Ref</source>
        <translation>Ref</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>Image</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>TTL</source>
        <translation>TTL</translation>
    </message>
    <message>
        <source>%1 s, expires %2</source>
        <translation>%1 s, Ablauf %2</translation>
    </message>
    <message>
        <source>CPUs</source>
        <translation>CPUs</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Arbeitsspeicher</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>Netzwerk</translation>
    </message>
    <message>
        <source>on</source>
        <translation>an</translation>
    </message>
    <message>
        <source>off</source>
        <translation>aus</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>all</source>
        <translation>alle</translation>
    </message>
    <message>
        <source>Mount</source>
        <translation>Einhängepunkt</translation>
    </message>
    <message>
        <source> (read-only)</source>
        <translation> (schreibgeschützt)</translation>
    </message>
    <message>
        <source>Abilities</source>
        <translation>Fähigkeiten</translation>
    </message>
    <message>
        <source>sessions ttl takes a whole number of seconds (0 for none)</source>
        <translation>sessions ttl erwartet eine ganze Zahl von Sekunden (0 für keine)</translation>
    </message>
    <message>
        <source>usage: sessions ttl REF SECONDS</source>
        <translation>Aufruf: sessions ttl REF SECONDS</translation>
    </message>
    <message>
        <source>usage: sessions adopt REF (a session listed by &apos;sessions list --all&apos;)</source>
        <translation>Aufruf: sessions adopt REF (eine von &apos;sessions list --all&apos; aufgeführte Sitzung)</translation>
    </message>
    <message>
        <source>usage: sessions info REF</source>
        <translation>Aufruf: sessions info REF</translation>
    </message>
    <message>
        <source>usage: sessions %1 REF</source>
        <translation>Aufruf: sessions %1 REF</translation>
    </message>
    <message>
        <source>unknown sessions subcommand &apos;%1&apos;</source>
        <translation>unbekannter sessions-Unterbefehl &apos;%1&apos;</translation>
    </message>
    <message>
        <source>  OOM-killed: %1</source>
        <translation>  Wegen Speichermangels beendet (OOM): %1</translation>
    </message>
    <message>
        <source>  disk %1 / %2</source>
        <translation>  Datenträger %1 / %2</translation>
    </message>
    <message>
        <source>  GPU %1 %2: util %3 (device), memory %4 / %5, session %6, %7, %8 W / %9 W</source>
        <translation>  GPU %1 %2: Auslastung %3 (Gerät), Speicher %4 / %5, Sitzung %6, %7, %8 W / %9 W</translation>
    </message>
    <message>
        <source>n/a (MIG)</source>
        <translation>k. A. (MIG)</translation>
    </message>
    <message>
        <source>usage: stats REF [--once] [--json]</source>
        <translation>Aufruf: stats REF [--once] [--json]</translation>
    </message>
    <message>
        <source>TIME      CPU      MEMORY / LIMIT  NET RX / TX  BLOCK R / W  PIDS</source>
        <translation>ZEIT      CPU      SPEICHER / LIMIT  NETZ RX / TX  BLOCK R / W  PIDS</translation>
    </message>
    <message>
        <source>warning: no time limit: this session runs until you stop it</source>
        <translation>Warnung: kein Zeitlimit: Diese Sitzung läuft, bis Sie sie stoppen</translation>
    </message>
    <message>
        <source>warning: %1 shortened the time limit to %2 minutes, the most the account allows</source>
        <translation>Warnung: %1 hat das Zeitlimit auf %2 Minuten gekürzt, das Höchste, was das Konto erlaubt</translation>
    </message>
    <message>
        <source>usage: mcp (speaks MCP on stdin and stdout)</source>
        <translation>Aufruf: mcp (spricht MCP über stdin und stdout)</translation>
    </message>
    <message>
        <source>Run a command</source>
        <translation>Befehl ausführen</translation>
    </message>
    <message>
        <source>Runs a command in a session without a terminal and answers with its stdout, stderr and exit code. Give argv (run as is) or command (run by sh -c). Each stream keeps its first 1 MiB; the byte counts say how much there was. On timeout the command is killed.</source>
        <translation>Führt einen Befehl ohne Terminal in einer Sitzung aus und antwortet mit stdout, stderr und Exit-Code. Geben Sie argv (wird unverändert ausgeführt) oder command (wird von sh -c ausgeführt) an. Von jedem Datenstrom bleibt das erste MiB; die Byte-Zahlen sagen, wie viel es war. Bei Zeitüberschreitung wird der Befehl beendet (kill).</translation>
    </message>
    <message>
        <source>Seconds before the command is killed (default 120)</source>
        <translation>Sekunden, bis der Befehl beendet wird (kill, Standard 120)</translation>
    </message>
    <message>
        <source>The program and its arguments, not interpreted</source>
        <translation>Das Programm und seine Argumente, nicht interpretiert</translation>
    </message>
    <message>
        <source>A shell command line</source>
        <translation>Eine Shell-Befehlszeile</translation>
    </message>
    <message>
        <source>Text given on stdin</source>
        <translation>Text für stdin</translation>
    </message>
    <message>
        <source>The command&apos;s exit code</source>
        <translation>Der Exit-Code des Befehls</translation>
    </message>
    <message>
        <source>Standard output (the first 1 MiB)</source>
        <translation>Standardausgabe (das erste MiB)</translation>
    </message>
    <message>
        <source>Standard error (the first 1 MiB)</source>
        <translation>Standardfehlerausgabe (das erste MiB)</translation>
    </message>
    <message>
        <source>Bytes written to stdout</source>
        <translation>Nach stdout geschriebene Bytes</translation>
    </message>
    <message>
        <source>Bytes written to stderr</source>
        <translation>Nach stderr geschriebene Bytes</translation>
    </message>
    <message>
        <source>Whether output was cut</source>
        <translation>Ob die Ausgabe gekürzt wurde</translation>
    </message>
    <message>
        <source>Give either argv (a list: program and arguments) or command (a shell line).</source>
        <translation>Geben Sie entweder argv (eine Liste: Programm und Argumente) oder command (eine Shell-Zeile) an.</translation>
    </message>
    <message>
        <source>The command did not finish within %1 s and was killed: %2
Output so far:
stdout (%3 bytes): %4
stderr (%5 bytes): %6</source>
        <translation>Der Befehl ist nicht innerhalb von %1 s fertig geworden und wurde beendet (kill): %2
Bisherige Ausgabe:
stdout (%3 Bytes): %4
stderr (%5 Bytes): %6</translation>
    </message>
    <message>
        <source>exit code %1</source>
        <translation>Exit-Code %1</translation>
    </message>
    <message>
        <source>[%1 truncated: the first %2 of %3 bytes are shown]</source>
        <translation>[%1 gekürzt: die ersten %2 von %3 Bytes werden gezeigt]</translation>
    </message>
    <message>
        <source>text (UTF-8, the default) or base64</source>
        <translation>text (UTF-8, Standard) oder base64</translation>
    </message>
    <message>
        <source>Write a file</source>
        <translation>Datei schreiben</translation>
    </message>
    <message>
        <source>Writes a file in a session (at most 8 MiB), replacing one that is there. The folder it goes into must exist. Content is UTF-8 text, or base64 for binary files.</source>
        <translation>Schreibt eine Datei in einer Sitzung (höchstens 8 MiB) und ersetzt eine vorhandene. Der Ordner, in den sie kommt, muss existieren. Der Inhalt ist UTF-8-Text oder base64 für Binärdateien.</translation>
    </message>
    <message>
        <source>Absolute path in the session</source>
        <translation>Absoluter Pfad in der Sitzung</translation>
    </message>
    <message>
        <source>The file&apos;s content</source>
        <translation>Der Inhalt der Datei</translation>
    </message>
    <message>
        <source>Where it was written</source>
        <translation>Wohin sie geschrieben wurde</translation>
    </message>
    <message>
        <source>Bytes written</source>
        <translation>Geschriebene Bytes</translation>
    </message>
    <message>
        <source>path must be an absolute path to a file in the session, e.g. /workspace/a.txt.</source>
        <translation>path muss ein absoluter Pfad zu einer Datei in der Sitzung sein, z. B. /workspace/a.txt.</translation>
    </message>
    <message>
        <source>The content is over the limit of %1 bytes; split the file or copy it with sandbarctl cp.</source>
        <translation>Der Inhalt überschreitet die Grenze von %1 Bytes; teilen Sie die Datei oder kopieren Sie sie mit sandbarctl cp.</translation>
    </message>
    <message>
        <source>content is not valid base64.</source>
        <translation>content ist kein gültiges base64.</translation>
    </message>
    <message>
        <source>The content is over the limit of %1 bytes.</source>
        <translation>Der Inhalt überschreitet die Grenze von %1 Bytes.</translation>
    </message>
    <message>
        <source>Cannot stage the file on this computer: %1</source>
        <translation>Die Datei kann auf diesem Computer nicht bereitgestellt werden: %1</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is a folder; name a file in it.</source>
        <translation>„%1“ ist ein Ordner; nennen Sie eine Datei darin.</translation>
    </message>
    <message>
        <source>Read a file</source>
        <translation>Datei lesen</translation>
    </message>
    <message>
        <source>Reads a file from a session (at most 8 MiB). As text it must be UTF-8; ask for base64 for anything else.</source>
        <translation>Liest eine Datei aus einer Sitzung (höchstens 8 MiB). Als Text muss sie UTF-8 sein; für alles andere fragen Sie nach base64.</translation>
    </message>
    <message>
        <source>The file</source>
        <translation>Die Datei</translation>
    </message>
    <message>
        <source>text or base64</source>
        <translation>text oder base64</translation>
    </message>
    <message>
        <source>The content</source>
        <translation>Der Inhalt</translation>
    </message>
    <message>
        <source>The file&apos;s size</source>
        <translation>Die Größe der Datei</translation>
    </message>
    <message>
        <source>path must be an absolute path to a file in the session.</source>
        <translation>path muss ein absoluter Pfad zu einer Datei in der Sitzung sein.</translation>
    </message>
    <message>
        <source>Cannot make a folder on this computer to receive the file.</source>
        <translation>Auf diesem Computer kann kein Ordner für die Datei angelegt werden.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is a folder; list_files shows what is in it.</source>
        <translation>„%1“ ist ein Ordner; list_files zeigt, was darin ist.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; has %2 bytes, over the limit of %3.</source>
        <translation>„%1“ hat %2 Bytes, mehr als die Grenze von %3.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not UTF-8 text; read it with encoding base64.</source>
        <translation>„%1“ ist kein UTF-8-Text; lesen Sie die Datei mit encoding base64.</translation>
    </message>
    <message>
        <source>List files</source>
        <translation>Dateien auflisten</translation>
    </message>
    <message>
        <source>Lists a folder in a session: names, sizes, kinds, permissions and modification times.</source>
        <translation>Listet einen Ordner in einer Sitzung auf: Namen, Größen, Arten, Rechte und Änderungszeiten.</translation>
    </message>
    <message>
        <source>Absolute folder (default /workspace)</source>
        <translation>Absoluter Ordner (Standard /workspace)</translation>
    </message>
    <message>
        <source>The folder</source>
        <translation>Der Ordner</translation>
    </message>
    <message>
        <source>path must be absolute, e.g. /workspace.</source>
        <translation>path muss absolut sein, z. B. /workspace.</translation>
    </message>
    <message>
        <source>The session: ACCOUNT/ID as create_session and list_sessions return it (&quot;ref&quot;), or an ID prefix or session name that only one account has.</source>
        <translation>Die Sitzung: ACCOUNT/ID, wie create_session und list_sessions sie liefern („ref“), oder ein ID-Präfix oder Sitzungsname, den nur ein Konto hat.</translation>
    </message>
    <message>
        <source> (list_sessions shows the sessions there are)</source>
        <translation> (list_sessions zeigt die vorhandenen Sitzungen)</translation>
    </message>
    <message>
        <source>ACCOUNT/ID, for the other tools</source>
        <translation>ACCOUNT/ID, für die anderen Werkzeuge</translation>
    </message>
    <message>
        <source>the provider&apos;s id</source>
        <translation>die ID des Anbieters</translation>
    </message>
    <message>
        <source>the account</source>
        <translation>das Konto</translation>
    </message>
    <message>
        <source>Running, Stopped, ...</source>
        <translation>Running, Stopped, …</translation>
    </message>
    <message>
        <source>List accounts</source>
        <translation>Konten auflisten</translation>
    </message>
    <message>
        <source>The provider accounts configured in Sandbar (a local sandbox, Docker/Podman engines, cloud services), with what each can do and the create options its provider takes.</source>
        <translation>Die in Sandbar eingerichteten Anbieterkonten (eine lokale Sandbox, Docker-/Podman-Engines, Cloud-Dienste), mit dem, was jedes kann, und den Erstellungsoptionen seines Anbieters.</translation>
    </message>
    <message>
        <source>List sessions</source>
        <translation>Sitzungen auflisten</translation>
    </message>
    <message>
        <source>The sessions Sandbar manages, asked of every account (or one), with their state, image, resources and time limit. An account that cannot be reached is named under errors.</source>
        <translation>Die Sitzungen, die Sandbar verwaltet, bei jedem Konto (oder einem) erfragt, mit Zustand, Image, Ressourcen und Zeitlimit. Ein nicht erreichbares Konto steht unter errors.</translation>
    </message>
    <message>
        <source>Only this account</source>
        <translation>Nur dieses Konto</translation>
    </message>
    <message>
        <source>No account named &apos;%1&apos; (list_accounts shows them).</source>
        <translation>Kein Konto namens „%1“ (list_accounts zeigt sie).</translation>
    </message>
    <message>
        <source> (providers: %1)</source>
        <translation> (Anbieter: %1)</translation>
    </message>
    <message>
        <source>; bytes, or a size such as 512M or 2G</source>
        <translation>; Bytes oder eine Größe wie 512M oder 2G</translation>
    </message>
    <message>
        <source>; seconds, or 30m, 2h, 1d</source>
        <translation>; Sekunden oder 30m, 2h, 1d</translation>
    </message>
    <message>
        <source>; &quot;all&quot;, a count, or GPU UUIDs or indices separated by commas</source>
        <translation>; „all“, eine Anzahl oder GPU-UUIDs oder -Indizes, durch Kommas getrennt</translation>
    </message>
    <message>
        <source>; KEY=VALUE entries</source>
        <translation>; Einträge KEY=VALUE</translation>
    </message>
    <message>
        <source>; [HOST:]SESSION[/tcp|/udp] entries</source>
        <translation>; Einträge [HOST:]SESSION[/tcp|/udp]</translation>
    </message>
    <message>
        <source>Create a session</source>
        <translation>Sitzung erstellen</translation>
    </message>
    <message>
        <source>The account to create in</source>
        <translation>Das Konto, in dem erstellt wird</translation>
    </message>
    <message>
        <source>Account &apos;%1&apos; uses provider &apos;%2&apos;, which this build does not have.</source>
        <translation>Konto „%1“ nutzt den Anbieter „%2“, den dieser Build nicht hat.</translation>
    </message>
    <message>
        <source>Provider &apos;%1&apos; (account &apos;%2&apos;) has no create option &apos;%3&apos;; it takes: %4.</source>
        <translation>Anbieter „%1“ (Konto „%2“) hat keine Erstellungsoption „%3“; er nimmt: %4.</translation>
    </message>
    <message>
        <source>Session statistics</source>
        <translation>Sitzungsstatistik</translation>
    </message>
    <message>
        <source>One reading of a session&apos;s CPU, memory, network, block I/O, process count and storage. Counters are cumulative; a figure the provider cannot tell is left out.</source>
        <translation>Eine Messung von CPU, Speicher, Netzwerk, Block-E/A, Prozesszahl und Speicherplatz einer Sitzung. Zähler sind kumulativ; was der Anbieter nicht sagen kann, fehlt.</translation>
    </message>
    <message>
        <source>ACCOUNT/ID</source>
        <translation>KONTO/ID</translation>
    </message>
    <message>
        <source>always true</source>
        <translation>immer true</translation>
    </message>
    <message>
        <source>vCPUs of one session</source>
        <translation>vCPUs einer Sitzung</translation>
    </message>
    <message>
        <source>memory of one session, GiB</source>
        <translation>Arbeitsspeicher einer Sitzung, GiB</translation>
    </message>
    <message>
        <source>running hours a month</source>
        <translation>Laufstunden im Monat</translation>
    </message>
    <message>
        <source>share of running time the CPU is busy, 0..1 (default 1)</source>
        <translation>Anteil der Laufzeit, in dem die CPU beschäftigt ist, 0..1 (Standard 1)</translation>
    </message>
    <message>
        <source>length of one session in hours</source>
        <translation>Dauer einer Sitzung in Stunden</translation>
    </message>
    <message>
        <source>storage kept, GiB</source>
        <translation>gehaltener Speicherplatz, GiB</translation>
    </message>
    <message>
        <source>hours a month a sandbox exists unused</source>
        <translation>Stunden im Monat, in denen eine Sandbox ungenutzt besteht</translation>
    </message>
    <message>
        <source>sessions a month</source>
        <translation>Sitzungen im Monat</translation>
    </message>
    <message>
        <source>network egress a month, GB</source>
        <translation>ausgehender Netzwerkverkehr im Monat, GB</translation>
    </message>
    <message>
        <source>Compare providers</source>
        <translation>Anbieter vergleichen</translation>
    </message>
    <message>
        <source>Prices a month of a workload at every provider in Sandbar&apos;s catalog, cheapest first, with the providers that cannot run it and why (the same table as sandbarctl compare).</source>
        <translation>Berechnet einen Monat einer Arbeitslast bei jedem Anbieter aus Sandbars Katalog, günstigster zuerst, mit den Anbietern, die sie nicht ausführen können, und dem Grund (dieselbe Tabelle wie sandbarctl compare).</translation>
    </message>
    <message>
        <source>GPU type, e.g. A100 (none: no GPU)</source>
        <translation>GPU-Typ, z. B. A100 (keiner: keine GPU)</translation>
    </message>
    <message>
        <source>GPUs per session (with gpu; default 1)</source>
        <translation>GPUs pro Sitzung (mit gpu; Standard 1)</translation>
    </message>
    <message>
        <source>subtract each provider&apos;s free monthly credit</source>
        <translation>das monatliche Freiguthaben jedes Anbieters abziehen</translation>
    </message>
    <message>
        <source>a broken catalog.json</source>
        <translation>eine fehlerhafte catalog.json</translation>
    </message>
    <message>
        <source>gpus needs gpu (a GPU type) and a count of at least 1.</source>
        <translation>gpus braucht gpu (einen GPU-Typ) und eine Anzahl von mindestens 1.</translation>
    </message>
    <message>
        <source>Stop a session</source>
        <translation>Sitzung stoppen</translation>
    </message>
    <message>
        <source>Stops a session; its files stay until remove_session.</source>
        <translation>Stoppt eine Sitzung; ihre Dateien bleiben bis remove_session.</translation>
    </message>
    <message>
        <source>Remove a session</source>
        <translation>Sitzung entfernen</translation>
    </message>
    <message>
        <source>Removes a session and everything in it.</source>
        <translation>Entfernt eine Sitzung und alles darin.</translation>
    </message>
    <message>
        <source>The monthly budget of $%1 for &apos;%2&apos; is reached ($%3 spent this month); no new sessions there until next month or until the budget is raised.</source>
        <translation>Das monatliche Budget von $%1 für „%2“ ist erreicht ($%3 in diesem Monat ausgegeben); dort gibt es keine neuen Sitzungen bis zum nächsten Monat oder bis das Budget erhöht wird.</translation>
    </message>
    <message>
        <source>Folders of this computer in the session, HOST:PATH[:ro] entries; only where the agent policy allows host paths, and by default after the person approves</source>
        <translation>Ordner dieses Computers in der Sitzung, Einträge HOST:PATH[:ro]; nur wenn die Agentenrichtlinie Host-Pfade erlaubt, und standardmäßig erst nach Freigabe durch die Person</translation>
    </message>
    <message>
        <source>Starts a new sandbox session in an account and answers once it runs. Options depend on the account&apos;s provider (list_accounts names them); without ttl it ends after the agent policy&apos;s default (30 minutes unless the person changed it). Network is off unless asked for. The person&apos;s agent policy may refuse the call or ask them to approve it first.</source>
        <translation>Startet eine neue Sandbox-Sitzung in einem Konto und antwortet, sobald sie läuft. Die Optionen hängen vom Anbieter des Kontos ab (list_accounts nennt sie); ohne ttl endet sie nach dem Standardwert der Agentenrichtlinie (30 Minuten, sofern die Person ihn nicht geändert hat). Das Netzwerk ist aus, sofern es nicht angefordert wird. Die Agentenrichtlinie der Person kann den Aufruf ablehnen oder die Person zuerst um Freigabe bitten.</translation>
    </message>
    <message>
        <source>running for %1 s</source>
        <translation>läuft seit %1 s</translation>
    </message>
    <message>
        <source>Upload from this computer</source>
        <translation>Von diesem Computer hochladen</translation>
    </message>
    <message>
        <source>Copies a file or folder of this computer into a session, as sandbarctl cp does (an existing folder receives it under its own name). Only where the person&apos;s agent policy allows host paths; by default they approve each upload in the Sandbar window.</source>
        <translation>Kopiert eine Datei oder einen Ordner dieses Computers in eine Sitzung, wie sandbarctl cp (ein vorhandener Ordner nimmt das Element unter seinem eigenen Namen auf). Nur wenn die Agentenrichtlinie der Person Host-Pfade erlaubt; standardmäßig gibt die Person jedes Hochladen im Sandbar-Fenster frei.</translation>
    </message>
    <message>
        <source>Absolute path on this computer</source>
        <translation>Absoluter Pfad auf diesem Computer</translation>
    </message>
    <message>
        <source>Absolute destination in the session</source>
        <translation>Absolutes Ziel in der Sitzung</translation>
    </message>
    <message>
        <source>What was copied</source>
        <translation>Was kopiert wurde</translation>
    </message>
    <message>
        <source>Where it went</source>
        <translation>Wohin es kopiert wurde</translation>
    </message>
    <message>
        <source>Bytes copied</source>
        <translation>Kopierte Bytes</translation>
    </message>
    <message>
        <source>host_path must be an absolute path.</source>
        <translation>host_path muss ein absoluter Pfad sein.</translation>
    </message>
    <message>
        <source>path must be an absolute path in the session.</source>
        <translation>path muss ein absoluter Pfad in der Sitzung sein.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; does not exist on this computer.</source>
        <translation>„%1“ existiert auf diesem Computer nicht.</translation>
    </message>
    <message>
        <source>Session &apos;%1&apos; is in account &apos;%2&apos;, which the agent policy does not allow.</source>
        <translation>Die Sitzung „%1“ liegt im Konto „%2“, das die Agentenrichtlinie nicht erlaubt.</translation>
    </message>
    <message>
        <source>usage: accounts trust NAME [--fingerprint SHA256:KEY]</source>
        <translation>Aufruf: accounts trust NAME [--fingerprint SHA256:SCHLÜSSEL]</translation>
    </message>
    <message>
        <source>Account &apos;%1&apos; reaches no host over SSH.</source>
        <translation>Das Konto „%1“ erreicht keinen Rechner über SSH.</translation>
    </message>
    <message>
        <source>%1: trusted the key %2 of %3 (in %4)</source>
        <translation>%1: dem Schlüssel %2 von %3 wird vertraut (in %4)</translation>
    </message>
    <message>
        <source>accounts needs a subcommand: list, add, remove, check, trust</source>
        <translation>accounts benötigt einen Unterbefehl: list, add, remove, check, trust</translation>
    </message>
    <message>
        <source> (asleep)</source>
        <translation> (schläft)</translation>
    </message>
    <message>
        <source>COMMENT</source>
        <translation>KOMMENTAR</translation>
    </message>
    <message>
        <source>snapshots needs a subcommand: list, create, restore</source>
        <translation>snapshots braucht einen Unterbefehl: list, create, restore</translation>
    </message>
    <message>
        <source>usage: snapshots list REF</source>
        <translation>Aufruf: snapshots list REF</translation>
    </message>
    <message>
        <source>usage: snapshots create REF [--comment TEXT]</source>
        <translation>Aufruf: snapshots create REF [--comment TEXT]</translation>
    </message>
    <message>
        <source>usage: snapshots restore REF ID</source>
        <translation>Aufruf: snapshots restore REF ID</translation>
    </message>
    <message>
        <source>unknown snapshots subcommand &apos;%1&apos;</source>
        <translation>unbekannter snapshots-Unterbefehl „%1“</translation>
    </message>
    <message>
        <source>the snapshot&apos;s id</source>
        <translation>die ID des Snapshots</translation>
    </message>
    <message>
        <source>when, ISO-8601 UTC</source>
        <translation>wann, ISO-8601 UTC</translation>
    </message>
    <message>
        <source>the comment, or the service&apos;s own words</source>
        <translation>der Kommentar oder die eigenen Worte des Dienstes</translation>
    </message>
    <message>
        <source>List snapshots</source>
        <translation>Snapshots auflisten</translation>
    </message>
    <message>
        <source>A session&apos;s snapshots, newest first (providers with snapshots: list_accounts says which).</source>
        <translation>Die Snapshots einer Sitzung, neueste zuerst (welche Anbieter Snapshots haben, sagt list_accounts).</translation>
    </message>
    <message>
        <source>Take a snapshot</source>
        <translation>Snapshot erstellen</translation>
    </message>
    <message>
        <source>Saves the session&apos;s files as they are now (on some providers the session stops while it saves: Vercel). A comment is kept where the provider keeps one.</source>
        <translation>Sichert die Dateien der Sitzung, wie sie jetzt sind (bei manchen Anbietern stoppt die Sitzung dafür: Vercel). Ein Kommentar wird behalten, wo der Anbieter einen behält.</translation>
    </message>
    <message>
        <source>what it is for</source>
        <translation>wofür er ist</translation>
    </message>
    <message>
        <source>Restore a snapshot</source>
        <translation>Snapshot wiederherstellen</translation>
    </message>
    <message>
        <source>Puts the session&apos;s files back as a snapshot has them; what runs in the session ends.</source>
        <translation>Setzt die Dateien der Sitzung auf den Stand eines Snapshots zurück; was in der Sitzung läuft, endet.</translation>
    </message>
    <message>
        <source>Name the snapshot to restore (list_snapshots shows them).</source>
        <translation>Nennen Sie den Snapshot, der wiederhergestellt werden soll (list_snapshots zeigt sie).</translation>
    </message>
    <message>
        <source>usage: sessions fork REF [--name NAME]</source>
        <translation>Aufruf: sessions fork REF [--name NAME]</translation>
    </message>
    <message>
        <source>usage: sessions set REF</source>
        <translation>Aufruf: sessions set REF</translation>
    </message>
    <message>
        <source>usage: mv REF:PATH TO</source>
        <translation>Aufruf: mv REF:PFAD ZIEL</translation>
    </message>
    <message>
        <source>usage: chmod MODE REF:PATH (MODE: one to four octal digits, such as 644)</source>
        <translation>Aufruf: chmod MODUS REF:PFAD (MODUS: eine bis vier Oktalziffern, etwa 644)</translation>
    </message>
    <message>
        <source>usage: sessions set REF --OPTION VALUE...</source>
        <translation>Aufruf: sessions set REF --OPTION WERT...</translation>
    </message>
    <message>
        <source>Provider &apos;%1&apos; takes no time limit; call again without ttl.</source>
        <translation>Anbieter &apos;%1&apos; kennt kein Zeitlimit; ohne ttl erneut aufrufen.</translation>
    </message>
    <message>
        <source>Fork a session</source>
        <translation>Sitzung abzweigen</translation>
    </message>
    <message>
        <source>Starts a copy of a session (its files and settings, as the provider keeps them: Vercel&apos;s from the sandbox&apos;s current snapshot) and answers once it runs; providers that fork: list_accounts says which. The copy is a new session of the agent&apos;s: the agent policy&apos;s limits and approvals apply as to create_session, and without ttl it ends after the policy&apos;s default.</source>
        <translation>Startet eine Kopie einer Sitzung (ihre Dateien und Einstellungen, wie der Anbieter sie hält: bei Vercel aus dem aktuellen Snapshot der Sandbox) und antwortet, sobald sie läuft; welche Anbieter abzweigen, sagt list_accounts. Die Kopie ist eine neue Sitzung des Agenten: Grenzen und Freigaben der Agentenrichtlinie gelten wie bei create_session, und ohne ttl endet sie nach dem Standard der Richtlinie.</translation>
    </message>
    <message>
        <source>the copy&apos;s name</source>
        <translation>der Name der Kopie</translation>
    </message>
    <message>
        <source>the copy&apos;s time limit: seconds, or 30m, 2h, 1d</source>
        <translation>das Zeitlimit der Kopie: Sekunden, oder 30m, 2h, 1d</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>exited %1</source>
        <translation>beendet mit %1</translation>
    </message>
    <message>
        <source>ended</source>
        <translation>beendet</translation>
    </message>
    <message>
        <source>STARTED</source>
        <translation>GESTARTET</translation>
    </message>
    <message>
        <source>COMMAND</source>
        <translation>BEFEHL</translation>
    </message>
    <message>
        <source>commands needs a subcommand: list, start, logs, kill</source>
        <translation>commands braucht einen Unterbefehl: list, start, logs, kill</translation>
    </message>
    <message>
        <source>usage: commands list REF</source>
        <translation>Aufruf: commands list REF</translation>
    </message>
    <message>
        <source>usage: commands start REF -- CMD [ARG]...</source>
        <translation>Aufruf: commands start REF -- CMD [ARG]...</translation>
    </message>
    <message>
        <source>usage: commands logs REF ID</source>
        <translation>Aufruf: commands logs REF ID</translation>
    </message>
    <message>
        <source>usage: commands kill REF ID [--signal SIG]</source>
        <translation>Aufruf: commands kill REF ID [--signal SIG]</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a signal: give TERM, KILL, INT, HUP, QUIT, USR1, USR2 or a number</source>
        <translation>„%1“ ist kein Signal: TERM, KILL, INT, HUP, QUIT, USR1, USR2 oder eine Zahl angeben</translation>
    </message>
    <message>
        <source>unknown commands subcommand &apos;%1&apos;</source>
        <translation>unbekannter Unterbefehl von commands: „%1“</translation>
    </message>
    <message>
        <source>the command&apos;s id</source>
        <translation>die ID des Befehls</translation>
    </message>
    <message>
        <source>what runs</source>
        <translation>was läuft</translation>
    </message>
    <message>
        <source>whether it still runs</source>
        <translation>ob er noch läuft</translation>
    </message>
    <message>
        <source>once it ended, where known</source>
        <translation>sobald er beendet ist, wo bekannt</translation>
    </message>
    <message>
        <source>the command&apos;s id, as start_command or list_commands gives it</source>
        <translation>die ID des Befehls, wie start_command oder list_commands sie nennen</translation>
    </message>
    <message>
        <source>Start a command that keeps running</source>
        <translation>Einen Befehl starten, der weiterläuft</translation>
    </message>
    <message>
        <source>Starts a command that runs on its own (a development server, a watcher) and answers at once with its id; command_output reads what it prints, signal_command stops it. Give argv (run as is) or command (run by sh -c). It takes no input.</source>
        <translation>Startet einen Befehl, der für sich weiterläuft (einen Entwicklungsserver, einen Watcher), und antwortet sofort mit seiner ID; command_output liest seine Ausgabe, signal_command hält ihn an. argv (unverändert ausgeführt) oder command (von sh -c ausgeführt) angeben. Er nimmt keine Eingabe.</translation>
    </message>
    <message>
        <source>List commands left running</source>
        <translation>Weiterlaufende Befehle auflisten</translation>
    </message>
    <message>
        <source>The commands started in a session with start_command, newest first, with their state.</source>
        <translation>Die mit start_command in einer Sitzung gestarteten Befehle, neueste zuerst, mit ihrem Zustand.</translation>
    </message>
    <message>
        <source>Read a command&apos;s output</source>
        <translation>Die Ausgabe eines Befehls lesen</translation>
    </message>
    <message>
        <source>What a command from start_command has printed since it started (the last 256 KiB of each stream), read for up to wait_seconds or until it ends; ended says which.</source>
        <translation>Was ein Befehl von start_command seit seinem Start ausgegeben hat (die letzten 256 KiB jedes Datenstroms), gelesen bis zu wait_seconds lang oder bis er endet; ended sagt, was davon.</translation>
    </message>
    <message>
        <source>Seconds to wait for more output (default 1)</source>
        <translation>Sekunden, die auf weitere Ausgabe gewartet wird (Standard 1)</translation>
    </message>
    <message>
        <source>its end, as text</source>
        <translation>ihr Ende, als Text</translation>
    </message>
    <message>
        <source>all there was</source>
        <translation>alles, was es gab</translation>
    </message>
    <message>
        <source>only the end kept</source>
        <translation>nur das Ende behalten</translation>
    </message>
    <message>
        <source>the command has ended</source>
        <translation>der Befehl ist beendet</translation>
    </message>
    <message>
        <source>Name the command (list_commands shows them).</source>
        <translation>Den Befehl nennen (list_commands zeigt sie).</translation>
    </message>
    <message>
        <source>Stop a command left running</source>
        <translation>Einen weiterlaufenden Befehl anhalten</translation>
    </message>
    <message>
        <source>Sends a signal to a command from start_command: TERM (the default) asks it to end, KILL ends it at once.</source>
        <translation>Sendet einem Befehl von start_command ein Signal: TERM (der Standard) bittet ihn zu enden, KILL beendet ihn sofort.</translation>
    </message>
    <message>
        <source>TERM, KILL, INT or HUP</source>
        <translation>TERM, KILL, INT oder HUP</translation>
    </message>
    <message>
        <source>the signal sent</source>
        <translation>das gesendete Signal</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a signal: give TERM, KILL, INT or HUP.</source>
        <translation>„%1“ ist kein Signal: TERM, KILL, INT oder HUP angeben.</translation>
    </message>
    <message>
        <source>usage: sessions label REF KEY=VALUE... [KEY-]...</source>
        <translation>Aufruf: sessions label REF KEY=VALUE... [KEY-]...</translation>
    </message>
    <message>
        <source>sessions needs a subcommand: list, create, info, stop, kill, rm, pause, resume, ttl, adopt, fork, set, label</source>
        <translation>sessions braucht einen Unterbefehl: list, create, info, stop, kill, rm, pause, resume, ttl, adopt, fork, set, label</translation>
    </message>
    <message>
        <source>; KEY=VALUE or KEY entries</source>
        <translation>; Einträge KEY=VALUE oder KEY</translation>
    </message>
    <message>
        <source>usage: sessions list [--account NAME] [--all] [--label KEY[=VALUE]]...</source>
        <translation>Aufruf: sessions list [--account NAME] [--all] [--label KEY[=VALUE]]...</translation>
    </message>
    <message>
        <source>--label needs a KEY or KEY=VALUE</source>
        <translation>--label braucht KEY oder KEY=VALUE</translation>
    </message>
    <message>
        <source>where the copy&apos;s files came from, where the provider says (a snapshot&apos;s lack what changed since)</source>
        <translation>woher die Dateien der Kopie stammen, wo der Anbieter es sagt (die eines Snapshots enthalten nicht, was sich seitdem geändert hat)</translation>
    </message>
</context>
<context>
    <name>sandbar::cli::McpAgent</name>
    <message>
        <source>unnamed client</source>
        <translation>unbenannter Client</translation>
    </message>
    <message>
        <source>Cancelled by the client.</source>
        <translation>Vom Client abgebrochen.</translation>
    </message>
    <message>
        <source>Account &apos;%1&apos; is not allowed by the agent policy.</source>
        <translation>Die Agentenrichtlinie erlaubt das Konto „%1“ nicht.</translation>
    </message>
    <message>
        <source>This call needs the person&apos;s approval (%1), and there is no Sandbar window to ask.</source>
        <translation>Dieser Aufruf braucht die Freigabe der Person (%1), und es gibt kein Sandbar-Fenster, in dem nachgefragt werden kann.</translation>
    </message>
    <message>
        <source>Waiting for approval in the Sandbar window</source>
        <translation>Warten auf Freigabe im Sandbar-Fenster</translation>
    </message>
    <message>
        <source>The person denied this call in the Sandbar window (%1).</source>
        <translation>Die Person hat diesen Aufruf im Sandbar-Fenster abgelehnt (%1).</translation>
    </message>
</context>
<context>
    <name>sandbar::cloud</name>
    <message>
        <source>%1 answered something that is not JSON (HTTP %2, %3 bytes): %4</source>
        <translation>%1 hat eine Antwort gesendet, die kein JSON ist (HTTP %2, %3 Bytes): %4</translation>
    </message>
    <message>
        <source>: %1</source>
        <translation>: %1</translation>
    </message>
    <message>
        <source>%1 refused the API key (HTTP 401)%2; check or replace the account&apos;s key</source>
        <translation>%1 hat den API-Schlüssel abgelehnt (HTTP 401)%2; prüfen oder ersetzen Sie den Schlüssel des Kontos</translation>
    </message>
    <message>
        <source>%1 refused the request (HTTP 403)%2</source>
        <translation>%1 hat die Anfrage abgelehnt (HTTP 403)%2</translation>
    </message>
    <message>
        <source>%1 has no such sandbox or path (HTTP 404)%2</source>
        <translation>%1 kennt diese Sandbox oder diesen Pfad nicht (HTTP 404)%2</translation>
    </message>
    <message>
        <source>%1 refused: conflict (HTTP 409)%2</source>
        <translation>%1 hat abgelehnt: Konflikt (HTTP 409)%2</translation>
    </message>
    <message>
        <source>%1 is rate limiting this account (HTTP 429)%2; try again shortly</source>
        <translation>%1 drosselt die Anfragen dieses Kontos (HTTP 429)%2; versuchen Sie es gleich noch einmal</translation>
    </message>
    <message>
        <source>%1 rejected the request (HTTP %2)%3</source>
        <translation>%1 hat die Anfrage zurückgewiesen (HTTP %2)%3</translation>
    </message>
    <message>
        <source>%1: the sandbox&apos;s disk is full (HTTP 507)%2</source>
        <translation>%1: Der Datenträger der Sandbox ist voll (HTTP 507)%2</translation>
    </message>
    <message>
        <source>%1 failed (HTTP %2)%3</source>
        <translation>%1 fehlgeschlagen (HTTP %2)%3</translation>
    </message>
    <message>
        <source>%1 answered HTTP %2%3</source>
        <translation>%1 antwortete mit HTTP %2%3</translation>
    </message>
    <message>
        <source>%1 &quot;%2&quot; is not a URL such as https://api.example.com</source>
        <translation>%1 &quot;%2&quot; ist keine URL wie https://api.example.com</translation>
    </message>
    <message>
        <source>%1 must start with https:// (it starts with %2://)</source>
        <translation>%1 muss mit https:// beginnen (sie beginnt mit %2://)</translation>
    </message>
    <message>
        <source>%1 uses plain http:// to %2: keys and files would cross the network unencrypted. Use https://; plain http is accepted for 127.0.0.1 and localhost only.</source>
        <translation>%1 verwendet unverschlüsseltes http:// für %2: Schlüssel und Dateien würden unverschlüsselt über das Netzwerk übertragen. Verwenden Sie https://; unverschlüsseltes http ist nur für 127.0.0.1 und localhost zulässig.</translation>
    </message>
    <message>
        <source>%1 must not carry a user name or password; the key is stored in the keychain</source>
        <translation>%1 darf weder Benutzernamen noch Passwort enthalten; der Schlüssel wird im Schlüsselbund gespeichert</translation>
    </message>
    <message>
        <source>%1 must not have a query or fragment</source>
        <translation>%1 darf weder Query-String noch Fragment enthalten</translation>
    </message>
    <message>
        <source>The CA file %1 cannot be read: %2</source>
        <translation>Die CA-Datei %1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>The CA file %1 is too large to be certificates</source>
        <translation>Die CA-Datei %1 ist zu groß für eine Zertifikatsdatei</translation>
    </message>
    <message>
        <source>The CA file %1 holds no PEM certificate</source>
        <translation>Die CA-Datei %1 enthält kein PEM-Zertifikat</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <source>This provider cannot copy %1</source>
        <translation>Dieser Anbieter kann %1 nicht kopieren</translation>
    </message>
    <message>
        <source>Cannot make the folder %1</source>
        <translation>Der Ordner %1 kann nicht erstellt werden</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API-Schlüssel</translation>
    </message>
    <message>
        <source>API URL</source>
        <translation>API-URL</translation>
    </message>
    <message>
        <source>CA file</source>
        <translation>CA-Datei</translation>
    </message>
    <message>
        <source>PEM certificates of a self-hosted service&apos;s own certificate authority</source>
        <translation>PEM-Zertifikate der eigenen Zertifizierungsstelle eines selbst betriebenen Dienstes</translation>
    </message>
    <message>
        <source>The %1 account %2 has no API key in the keychain; edit the account to add one, or add it again with --api-key-env</source>
        <translation>Das %1-Konto %2 hat keinen API-Schlüssel im Schlüsselbund; bearbeiten Sie das Konto, um einen hinzuzufügen, oder fügen Sie es mit --api-key-env erneut hinzu</translation>
    </message>
    <message>
        <source>The %1 API URL</source>
        <translation>Die %1-API-URL</translation>
    </message>
    <message>
        <source>%1 sent a malformed %2: %3</source>
        <translation>%1 hat eine fehlerhafte Antwort (%2) gesendet: %3</translation>
    </message>
    <message>
        <source>the reply is empty</source>
        <translation>die Antwort ist leer</translation>
    </message>
    <message>
        <source>it is not JSON</source>
        <translation>sie ist kein JSON</translation>
    </message>
    <message>
        <source>The account was closed</source>
        <translation>Das Konto wurde geschlossen</translation>
    </message>
    <message>
        <source>Nothing is at %1 in the sandbox</source>
        <translation>In der Sandbox ist nichts unter %1</translation>
    </message>
    <message>
        <source>The service sent a line of over 8 MiB</source>
        <translation>Der Dienst sandte eine Zeile von über 8 MiB</translation>
    </message>
</context>
<context>
    <name>sandbar::cloud::CloudClient</name>
    <message>
        <source>%1 did not answer in time (%2)</source>
        <translation>%1 hat nicht rechtzeitig geantwortet (%2)</translation>
    </message>
    <message>
        <source>%1 sent a reply too large to be what was asked</source>
        <translation>%1 hat eine unerwartet große Antwort gesendet</translation>
    </message>
    <message>
        <source>The certificate of %1 was refused: %2. A self-hosted service with its own certificate authority needs the account&apos;s CA file.</source>
        <translation>Das Zertifikat von %1 wurde abgelehnt: %2. Ein selbst gehosteter Dienst mit eigener Zertifizierungsstelle benötigt die CA-Datei des Kontos.</translation>
    </message>
    <message>
        <source>Cannot reach %1 at %2: %3</source>
        <translation>%1 unter %2 ist nicht erreichbar: %3</translation>
    </message>
    <message>
        <source>The connection to %1 (%2) was lost: %3</source>
        <translation>Die Verbindung zu %1 (%2) wurde unterbrochen: %3</translation>
    </message>
</context>
<context>
    <name>sandbar::cloud::DeferredTransferJob</name>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
</context>
<context>
    <name>sandbar::cloud::HttpDownloadJob</name>
    <message>
        <source>The account was closed</source>
        <translation>Das Konto wurde geschlossen</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>The download of %1 ended after %2 of %3 bytes</source>
        <translation>Der Download von %1 endete nach %2 von %3 Bytes</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
</context>
<context>
    <name>sandbar::cloud::HttpUploadJob</name>
    <message>
        <source>The account was closed</source>
        <translation>Das Konto wurde geschlossen</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
</context>
<context>
    <name>sandbar::cloud::WebSocketPortForward</name>
    <message>
        <source>the port</source>
        <translation>den Port</translation>
    </message>
    <message>
        <source>the connection closed</source>
        <translation>die Verbindung wurde geschlossen</translation>
    </message>
    <message>
        <source>%1 did not open the port within %2 s</source>
        <translation>%1 hat den Port nicht innerhalb von %2 s geöffnet</translation>
    </message>
    <message>
        <source>%1 did not connect the port: %2</source>
        <translation>%1 hat den Port nicht verbunden: %2</translation>
    </message>
    <message>
        <source>No local port for forwarding: %1</source>
        <translation>Kein lokaler Port für die Weiterleitung: %1</translation>
    </message>
    <message>
        <source>the program on this computer stopped reading what %1 sent (%2 MiB waiting): the connection was closed</source>
        <translation>das Programm auf diesem Rechner hat aufgehört zu lesen, was %1 sendet (%2 MiB warten): die Verbindung wurde geschlossen</translation>
    </message>
</context>
<context>
    <name>sandbar::cloud::WebSocketPtyChannel</name>
    <message>
        <source>The service</source>
        <translation>Der Dienst</translation>
    </message>
    <message>
        <source>The terminal has no address</source>
        <translation>Das Terminal hat keine Adresse</translation>
    </message>
    <message>
        <source>The certificate of %1 was refused: %2. A self-hosted service with its own certificate authority needs the account&apos;s CA file.</source>
        <translation>Das Zertifikat von %1 wurde abgelehnt: %2. Ein selbst gehosteter Dienst mit eigener Zertifizierungsstelle benötigt die CA-Datei des Kontos.</translation>
    </message>
    <message>
        <source>The terminal connection to %1 failed: %2</source>
        <translation>Die Terminalverbindung zu %1 ist fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>%1 did not open the terminal in time</source>
        <translation>%1 hat das Terminal nicht rechtzeitig geöffnet</translation>
    </message>
    <message>
        <source>%1 ended the terminal connection (code %2)</source>
        <translation>%1 hat die Terminalverbindung beendet (Code %2)</translation>
    </message>
    <message>
        <source>%1 ended the terminal connection (code %2): %3</source>
        <translation>%1 hat die Terminalverbindung beendet (Code %2): %3</translation>
    </message>
    <message>
        <source>%1 kept sending terminal output faster than it could be shown (over %2 MiB waiting); the terminal was disconnected so that Sandbar&apos;s memory stays bounded.</source>
        <translation>%1 hat Terminalausgaben schneller gesendet, als sie angezeigt werden konnten (über %2 MiB warteten); das Terminal wurde getrennt, damit Sandbars Speicherverbrauch begrenzt bleibt.</translation>
    </message>
    <message>
        <source>%1 offered an unencrypted address (%2); only https is accepted</source>
        <translation>%1 bot eine unverschlüsselte Adresse an (%2); nur https wird angenommen</translation>
    </message>
    <message>
        <source>%1 refused %2: the key was not accepted (%3)</source>
        <translation>%1 hat %2 abgelehnt: der Schlüssel wurde nicht angenommen (%3)</translation>
    </message>
    <message>
        <source>The connection to %1 for %2 failed: %3</source>
        <translation>Die Verbindung zu %1 für %2 ist fehlgeschlagen: %3</translation>
    </message>
    <message>
        <source>the terminal</source>
        <translation>das Terminal</translation>
    </message>
</context>
<context>
    <name>sandbar::cloud::WebSocketTerminals</name>
    <message>
        <source>The account was closed</source>
        <translation>Das Konto wurde geschlossen</translation>
    </message>
</context>
<context>
    <name>sandbar::costs</name>
    <message>
        <source>quantities must be finite and not negative</source>
        <translation>Mengen müssen endlich und nicht negativ sein</translation>
    </message>
    <message>
        <source>vCPUs must be more than 0</source>
        <translation>vCPUs müssen mehr als 0 sein</translation>
    </message>
    <message>
        <source>the busy share of CPU time must lie between 0 and 1</source>
        <translation>der ausgelastete Anteil der CPU-Zeit muss zwischen 0 und 1 liegen</translation>
    </message>
    <message>
        <source>the GPU count must not be negative</source>
        <translation>die GPU-Anzahl darf nicht negativ sein</translation>
    </message>
    <message>
        <source>name the GPU type with the GPU count</source>
        <translation>geben Sie zur GPU-Anzahl den GPU-Typ an</translation>
    </message>
    <message>
        <source>not a sandbox runtime</source>
        <translation>keine Sandbox-Laufzeitumgebung</translation>
    </message>
</context>
<context>
    <name>sandbar::daytona</name>
    <message>
        <source>Daytona</source>
        <translation>Daytona</translation>
    </message>
    <message>
        <source>Cloud sandboxes on Daytona, billed by the service per second of use.</source>
        <translation>Cloud-Sandboxes bei Daytona, vom Dienst sekundengenau nach Nutzung abgerechnet.</translation>
    </message>
    <message>
        <source>sandbox</source>
        <translation>Sandbox</translation>
    </message>
    <message>
        <source>sandbox list</source>
        <translation>Sandbox-Liste</translation>
    </message>
    <message>
        <source>terminal control message</source>
        <translation>Terminal-Steuernachricht</translation>
    </message>
    <message>
        <source>Daytona refused the terminal</source>
        <translation>Daytona hat das Terminal verweigert</translation>
    </message>
    <message>
        <source>Daytona refused the terminal: %1</source>
        <translation>Daytona hat das Terminal verweigert: %1</translation>
    </message>
    <message>
        <source>terminal reply</source>
        <translation>Terminalantwort</translation>
    </message>
    <message>
        <source>terminal list</source>
        <translation>Terminalliste</translation>
    </message>
    <message>
        <source>command result</source>
        <translation>Befehlsergebnis</translation>
    </message>
    <message>
        <source>metrics reply</source>
        <translation>Metrikantwort</translation>
    </message>
    <message>
        <source>file entry</source>
        <translation>Dateieintrag</translation>
    </message>
    <message>
        <source>folder listing</source>
        <translation>Ordnerliste</translation>
    </message>
    <message>
        <source>Stopped: files kept, memory lost, not billed for CPU and memory</source>
        <translation>Angehalten: Dateien bleiben erhalten, Arbeitsspeicher geht verloren, CPU und Arbeitsspeicher werden nicht berechnet</translation>
    </message>
    <message>
        <source>A Daytona API key (dtn_...); kept in the system keychain</source>
        <translation>Ein Daytona-API-Schlüssel (dtn_...); wird im Schlüsselbund des Systems aufbewahrt</translation>
    </message>
    <message>
        <source>Daytona&apos;s API; change it for a self-hosted Daytona</source>
        <translation>Die API von Daytona; für ein selbst betriebenes Daytona ändern</translation>
    </message>
    <message>
        <source>Organization</source>
        <translation>Organisation</translation>
    </message>
    <message>
        <source>Organization ID, when the key belongs to several</source>
        <translation>Organisations-ID, wenn der Schlüssel zu mehreren gehört</translation>
    </message>
    <message>
        <source>Region</source>
        <translation>Region</translation>
    </message>
    <message>
        <source>Where new sandboxes run (us, eu, ...); empty: the organization&apos;s default</source>
        <translation>Wo neue Sandboxes laufen (us, eu, ...); leer: die Vorgabe der Organisation</translation>
    </message>
    <message>
        <source>PEM certificates of a self-hosted Daytona&apos;s own certificate authority</source>
        <translation>PEM-Zertifikate der eigenen Zertifizierungsstelle eines selbst betriebenen Daytona</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>Image</translation>
    </message>
    <message>
        <source>The snapshot (image) the sandbox starts from; empty: Daytona&apos;s default</source>
        <translation>Der Snapshot (das Image), mit dem die Sandbox startet; leer: die Vorgabe von Daytona</translation>
    </message>
    <message>
        <source>Snapshot</source>
        <translation>Snapshot</translation>
    </message>
    <message>
        <source>Alias of image: a Daytona snapshot name</source>
        <translation>Anderer Name für Image: der Name eines Daytona-Snapshots</translation>
    </message>
    <message>
        <source>CPUs</source>
        <translation>CPUs</translation>
    </message>
    <message>
        <source>Whole CPU cores (fractions are rounded up)</source>
        <translation>Ganze CPU-Kerne (Bruchteile werden aufgerundet)</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>Memory, in whole GB (rounded up)</source>
        <translation>Speicher in ganzen GB (aufgerundet)</translation>
    </message>
    <message>
        <source>Disk</source>
        <translation>Festplatte</translation>
    </message>
    <message>
        <source>Disk size, in whole GB (rounded up)</source>
        <translation>Festplattengröße in ganzen GB (aufgerundet)</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>How many GPUs (GPU sandboxes must be ephemeral on Daytona)</source>
        <translation>Wie viele GPUs (GPU-Sandboxes müssen bei Daytona kurzlebig sein)</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>Umgebung</translation>
    </message>
    <message>
        <source>KEY=VALUE, one a line</source>
        <translation>KEY=VALUE, eine Angabe pro Zeile</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>Netzwerk</translation>
    </message>
    <message>
        <source>Let the sandbox reach the network (off: all traffic is blocked)</source>
        <translation>Die Sandbox darf ins Netzwerk (aus: jeder Verkehr wird blockiert)</translation>
    </message>
    <message>
        <source>Stop when idle for</source>
        <translation>Anhalten nach Leerlauf von</translation>
    </message>
    <message>
        <source>Daytona stops the sandbox after this long without activity (a terminal, a command, a file transfer); 0 = never. This is not a time limit</source>
        <translation>Daytona hält die Sandbox nach so langer Zeit ohne Aktivität (ein Terminal, ein Befehl, eine Dateiübertragung) an; 0 = nie. Das ist kein Zeitlimit</translation>
    </message>
    <message>
        <source>Time limit</source>
        <translation>Zeitlimit</translation>
    </message>
    <message>
        <source>Sandbar stops the sandbox after this long, while Sandbar runs (Daytona has no wall-clock limit of its own); 0 = none</source>
        <translation>Sandbar hält die Sandbox nach dieser Zeit an, solange Sandbar läuft (Daytona hat selbst kein Zeitlimit); 0 = keins</translation>
    </message>
    <message>
        <source>Archived: kept in cheaper storage; Resume restores it, more slowly than from a stop</source>
        <translation>Archiviert: in günstigerem Speicher aufbewahrt; Fortsetzen stellt sie wieder her, langsamer als nach einem Anhalten</translation>
    </message>
    <message>
        <source>it is not what the API describes</source>
        <translation>sie entspricht nicht der API-Beschreibung</translation>
    </message>
</context>
<context>
    <name>sandbar::daytona::DaytonaExecJob</name>
    <message>
        <source>The account was closed</source>
        <translation>Das Konto wurde geschlossen</translation>
    </message>
    <message>
        <source>No command to run</source>
        <translation>Kein Befehl zum Ausführen</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
    <message numerus="yes">
        <source>Cancelled; %n process(es) of the command were ended.</source>
        <translation>
            <numerusform>Abgebrochen; %n Prozess des Befehls wurde beendet.</numerusform>
            <numerusform>Abgebrochen; %n Prozesse des Befehls wurden beendet.</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancelled, but its processes could not be killed and may still run: %1</source>
        <translation>Abgebrochen, aber seine Prozesse ließen sich nicht beenden und laufen vielleicht weiter: %1</translation>
    </message>
</context>
<context>
    <name>sandbar::daytona::DaytonaProvider</name>
    <message>
        <source>Daytona</source>
        <translation>Daytona</translation>
    </message>
    <message>
        <source>Toolbox URL</source>
        <translation>Toolbox-URL</translation>
    </message>
    <message>
        <source>The time limit, CPUs and memory must be positive</source>
        <translation>Zeitlimit, CPUs und Arbeitsspeicher müssen positiv sein</translation>
    </message>
    <message>
        <source>Creating the sandbox…</source>
        <translation>Sandbox wird erstellt…</translation>
    </message>
    <message>
        <source>Daytona could not start the sandbox</source>
        <translation>Daytona konnte die Sandbox nicht starten</translation>
    </message>
    <message>
        <source>Daytona could not start the sandbox: %1</source>
        <translation>Daytona konnte die Sandbox nicht starten: %1</translation>
    </message>
    <message>
        <source>The sandbox did not start in time (it is %1)</source>
        <translation>Die Sandbox wurde nicht rechtzeitig gestartet (Status: %1)</translation>
    </message>
    <message>
        <source>Starting the sandbox…</source>
        <translation>Sandbox wird gestartet…</translation>
    </message>
    <message>
        <source>Stopping failed</source>
        <translation>Stoppen fehlgeschlagen</translation>
    </message>
    <message>
        <source>Killing failed</source>
        <translation>Beenden erzwingen fehlgeschlagen</translation>
    </message>
    <message>
        <source>Starting failed</source>
        <translation>Starten fehlgeschlagen</translation>
    </message>
    <message>
        <source>Removing failed: %1</source>
        <translation>Entfernen fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>The time limit must not be negative</source>
        <translation>Das Zeitlimit darf nicht negativ sein</translation>
    </message>
    <message>
        <source>Daytona gave no usable toolbox address for this sandbox (https is needed)</source>
        <translation>Daytona hat für diese Sandbox keine verwendbare Toolbox-Adresse geliefert (https erforderlich)</translation>
    </message>
    <message>
        <source>The terminal connection to Daytona was closed before the shell ended (code %1)</source>
        <translation>Die Terminalverbindung zu Daytona wurde geschlossen, bevor die Shell beendet war (Code %1)</translation>
    </message>
    <message>
        <source>The terminal connection to Daytona was closed before the shell ended (code %1: %2)</source>
        <translation>Die Terminalverbindung zu Daytona wurde geschlossen, bevor die Shell beendet war (Code %1: %2)</translation>
    </message>
    <message>
        <source>The account was closed</source>
        <translation>Das Konto wurde geschlossen</translation>
    </message>
    <message>
        <source>Refusing to delete &apos;%1&apos;</source>
        <translation>Löschen von &apos;%1&apos; wird verweigert</translation>
    </message>
    <message>
        <source>Pausing failed</source>
        <translation>Pausieren fehlgeschlagen</translation>
    </message>
    <message>
        <source>Archiving failed</source>
        <translation>Archivieren fehlgeschlagen</translation>
    </message>
    <message>
        <source>%1 is one of Sandbar&apos;s labels</source>
        <translation>%1 ist eines von Sandbars Labels</translation>
    </message>
</context>
<context>
    <name>sandbar::docker</name>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>%1 — %2 (%3)</source>
        <translation>%1 — %2 (%3)</translation>
    </message>
    <message>
        <source>session %1 is not running (%2)</source>
        <translation>Sitzung %1 läuft nicht (%2)</translation>
    </message>
    <message>
        <source>Starting a command failed</source>
        <translation>Starten eines Befehls fehlgeschlagen</translation>
    </message>
    <message>
        <source>Podman</source>
        <translation>Podman</translation>
    </message>
    <message>
        <source>Docker</source>
        <translation>Docker</translation>
    </message>
    <message>
        <source>Containers on a Podman service (its Docker-compatible API).</source>
        <translation>Container auf einem Podman-Dienst (über dessen Docker-kompatible API).</translation>
    </message>
    <message>
        <source>Containers on a Docker Engine, local or remote.</source>
        <translation>Container auf einer Docker Engine, lokal oder entfernt.</translation>
    </message>
    <message>
        <source>No Podman service was found; start one (systemctl --user start podman.socket) or enter its endpoint.</source>
        <translation>Kein Podman-Dienst gefunden; starten Sie einen (systemctl --user start podman.socket) oder geben Sie seinen Endpunkt ein.</translation>
    </message>
    <message>
        <source>No Docker engine was found; start one or enter its endpoint.</source>
        <translation>Keine Docker-Engine gefunden; starten Sie eine oder geben Sie ihren Endpunkt ein.</translation>
    </message>
    <message>
        <source>This Docker engine has no NVIDIA runtime (nvidia-container-toolkit), so it cannot give a session GPUs: install the NVIDIA Container Toolkit on the engine&apos;s host and restart Docker, or create the session without GPUs (the engine said: %1).</source>
        <translation>Diese Docker-Engine hat keine NVIDIA-Laufzeitumgebung (nvidia-container-toolkit) und kann einer Sitzung daher keine GPUs zuweisen: Installieren Sie das NVIDIA Container Toolkit auf dem Host der Engine und starten Sie Docker neu, oder erstellen Sie die Sitzung ohne GPUs (Meldung der Engine: %1).</translation>
    </message>
    <message>
        <source>The engine did not say which API version it speaks; Sandbar needs %1 or newer.</source>
        <translation>Die Engine hat nicht angegeben, welche API-Version sie spricht; Sandbar benötigt %1 oder neuer.</translation>
    </message>
    <message>
        <source>engine speaks API %1; Sandbar needs %2 or newer</source>
        <translation>Engine spricht API %1; Sandbar benötigt %2 oder neuer</translation>
    </message>
    <message>
        <source>HTTP status %1</source>
        <translation>HTTP-Status %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>The engine sent an unreadable container description.</source>
        <translation>Die Engine hat eine unlesbare Container-Beschreibung gesendet.</translation>
    </message>
    <message>
        <source>Exited (%1)</source>
        <translation>Beendet (%1)</translation>
    </message>
    <message>
        <source>exited with code %1</source>
        <translation>mit Code %1 beendet</translation>
    </message>
    <message>
        <source>killed for running out of memory</source>
        <translation>wegen Speichermangels beendet</translation>
    </message>
    <message>
        <source>The engine sent an unreadable container list.</source>
        <translation>Die Engine hat eine unlesbare Container-Liste gesendet.</translation>
    </message>
    <message>
        <source>The engine sent no statistics.</source>
        <translation>Die Engine hat keine Statistik gesendet.</translation>
    </message>
    <message>
        <source>The engine sent unreadable statistics.</source>
        <translation>Die Engine hat eine unlesbare Statistik gesendet.</translation>
    </message>
    <message>
        <source>Forwarding ports needs the network on: a session without a network has no port to forward. Turn the network on or leave out the ports.</source>
        <translation>Für die Portweiterleitung muss das Netzwerk eingeschaltet sein: Eine Sitzung ohne Netzwerk hat keinen Port zum Weiterleiten. Schalten Sie das Netzwerk ein oder lassen Sie die Ports weg.</translation>
    </message>
    <message>
        <source>Port %1 is not between 1 and 65535.</source>
        <translation>Port %1 liegt nicht zwischen 1 und 65535.</translation>
    </message>
    <message>
        <source>Port protocol &apos;%1&apos; is not tcp or udp.</source>
        <translation>Port-Protokoll &apos;%1&apos; ist weder tcp noch udp.</translation>
    </message>
    <message>
        <source>%1 B</source>
        <translation>%1 B</translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation>%1 KiB</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>The engine did not forward %1 to this computer: its network cannot publish ports (an engine started with --bridge=none, or a network without port mapping). The session was removed.</source>
        <translation>Die Engine hat %1 nicht an diesen Computer weitergeleitet: Ihr Netzwerk kann keine Ports veröffentlichen (eine mit --bridge=none gestartete Engine oder ein Netzwerk ohne Port-Mapping). Die Sitzung wurde entfernt.</translation>
    </message>
    <message>
        <source>Engine endpoint</source>
        <translation>Engine-Endpunkt</translation>
    </message>
    <message>
        <source>Verify TLS</source>
        <translation>TLS prüfen</translation>
    </message>
    <message>
        <source>Check the engine&apos;s certificate (tcp:// endpoints)</source>
        <translation>Das Zertifikat der Engine prüfen (tcp://-Endpunkte)</translation>
    </message>
    <message>
        <source>Certificate folder</source>
        <translation>Zertifikatsordner</translation>
    </message>
    <message>
        <source>Folder with ca.pem, cert.pem and key.pem for TLS</source>
        <translation>Ordner mit ca.pem, cert.pem und key.pem für TLS</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>Image</translation>
    </message>
    <message>
        <source>Container image the session runs</source>
        <translation>Container-Image, das die Sitzung ausführt</translation>
    </message>
    <message>
        <source>CPUs</source>
        <translation>CPUs</translation>
    </message>
    <message>
        <source>CPU cores (fractions allowed)</source>
        <translation>CPU-Kerne (Bruchteile erlaubt)</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>Memory limit (swap is disabled)</source>
        <translation>Speicherlimit (Swap ist abgeschaltet)</translation>
    </message>
    <message>
        <source>Process limit</source>
        <translation>Prozesslimit</translation>
    </message>
    <message>
        <source>Most processes at once</source>
        <translation>Höchstzahl gleichzeitiger Prozesse</translation>
    </message>
    <message>
        <source>Time limit</source>
        <translation>Zeitlimit</translation>
    </message>
    <message>
        <source>The session ends itself after this long, even with Sandbar closed; 0 = none</source>
        <translation>Die Sitzung beendet sich nach dieser Zeit selbst, auch wenn Sandbar geschlossen ist; 0 = keins</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>Umgebung</translation>
    </message>
    <message>
        <source>KEY=VALUE, one a line</source>
        <translation>KEY=VALUE, eine Angabe pro Zeile</translation>
    </message>
    <message>
        <source>Mounts</source>
        <translation>Einhängepunkte</translation>
    </message>
    <message>
        <source>HOST:SESSION[:ro] folders to share, one a line</source>
        <translation>HOST:SESSION[:ro] – freizugebende Ordner, einer pro Zeile</translation>
    </message>
    <message>
        <source>Read-only mounts</source>
        <translation>Schreibgeschützte Einhängepunkte</translation>
    </message>
    <message>
        <source>Share every mount read-only</source>
        <translation>Jeden Einhängepunkt schreibgeschützt freigeben</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>Netzwerk</translation>
    </message>
    <message>
        <source>Give the session a network (off: no network at all)</source>
        <translation>Der Sitzung ein Netzwerk geben (aus: überhaupt kein Netzwerk)</translation>
    </message>
    <message>
        <source>Forwarded ports</source>
        <translation>Weitergeleitete Ports</translation>
    </message>
    <message>
        <source>[HOST:]SESSION[/udp], one a line; reachable on 127.0.0.1 only; needs the network on</source>
        <translation>[HOST:]SESSION[/udp], einer pro Zeile; nur über 127.0.0.1 erreichbar; erfordert eingeschaltetes Netzwerk</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>uid[:gid] or name; empty: 1000:1000</source>
        <translation>uid[:gid] oder Name; leer: 1000:1000</translation>
    </message>
    <message>
        <source>tmpfs mounts</source>
        <translation>tmpfs-Einhängepunkte</translation>
    </message>
    <message>
        <source>Comma-separated paths mounted as tmpfs, e.g. /scratch</source>
        <translation>Kommagetrennte Pfade, die als tmpfs eingehängt werden, z. B. /scratch</translation>
    </message>
    <message>
        <source>Read-only root</source>
        <translation>Schreibgeschütztes Wurzeldateisystem</translation>
    </message>
    <message>
        <source>Make the image&apos;s file system read-only</source>
        <translation>Das Dateisystem des Images schreibgeschützt machen</translation>
    </message>
    <message>
        <source>Working folder</source>
        <translation>Arbeitsordner</translation>
    </message>
    <message>
        <source>Where commands start</source>
        <translation>Wo Befehle starten</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>all, a number of GPUs, or GPU UUIDs separated by commas (nvidia-smi -L); needs the NVIDIA Container Toolkit on the engine</source>
        <translation>all, eine Anzahl GPUs oder kommagetrennte GPU-UUIDs (nvidia-smi -L); erfordert das NVIDIA Container Toolkit auf der Engine</translation>
    </message>
    <message>
        <source>unix:///var/run/docker.sock, tcp://host:2376, ssh://user@host[/socket], npipe:////./pipe/docker_engine; empty: find it</source>
        <translation>unix:///var/run/docker.sock, tcp://host:2376, ssh://benutzer@host[/socket], npipe:////./pipe/docker_engine; leer: suchen</translation>
    </message>
    <message>
        <source>SSH key</source>
        <translation>SSH-Schlüssel</translation>
    </message>
    <message>
        <source>Private key for ssh:// endpoints (ssh -i); empty: your ssh configuration and ssh-agent</source>
        <translation>Privater Schlüssel für ssh://-Endpunkte (ssh -i); leer: Ihre SSH-Konfiguration und ssh-agent</translation>
    </message>
    <message>
        <source>SSH configuration</source>
        <translation>SSH-Konfiguration</translation>
    </message>
    <message>
        <source>ssh_config file for ssh:// endpoints (ssh -F); empty: ~/.ssh/config</source>
        <translation>ssh_config-Datei für ssh://-Endpunkte (ssh -F); leer: ~/.ssh/config</translation>
    </message>
    <message>
        <source>The engine on %1 is not on a unix socket (%2); name its socket in the address, ssh://host/path/to/engine.sock.</source>
        <translation>Die Engine auf %1 liegt nicht an einem Unix-Socket (%2); geben Sie ihren Socket in der Adresse an, ssh://host/pfad/zur/engine.sock.</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>keine Antwort</translation>
    </message>
    <message>
        <source>The SSH connection was not prepared.</source>
        <translation>Die SSH-Verbindung wurde nicht vorbereitet.</translation>
    </message>
    <message>
        <source>%1 over SSH — %2 (%3)</source>
        <translation>%1 über SSH — %2 (%3)</translation>
    </message>
    <message>
        <source>The host key of %1 is not known: refused, nothing was sent. The host offers %2; if that is its key, trust it (sandbarctl accounts trust %3 --fingerprint %2).</source>
        <translation>Der Rechnerschlüssel von %1 ist unbekannt: abgelehnt, nichts wurde gesendet. Der Rechner bietet %2 an; wenn das sein Schlüssel ist, vertrauen Sie ihm (sandbarctl accounts trust %3 --fingerprint %2).</translation>
    </message>
    <message numerus="yes">
        <source>%1 (Sandbar tries again in %n s.)</source>
        <translation>
            <numerusform>%1 (Sandbar versucht es in %n s erneut.)</numerusform>
            <numerusform>%1 (Sandbar versucht es in %n s erneut.)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is unreachable: %2</source>
        <translation>%1 ist nicht erreichbar: %2</translation>
    </message>
    <message>
        <source>Host price (USD/h)</source>
        <translation>Rechnerpreis (USD/h)</translation>
    </message>
    <message>
        <source>What the engine&apos;s machine costs per hour, split across its running sessions by CPUs; empty: nothing</source>
        <translation>Was die Maschine der Engine pro Stunde kostet, nach CPUs auf ihre laufenden Sitzungen verteilt; leer: nichts</translation>
    </message>
    <message>
        <source>%1 does not forward the engine&apos;s socket %2 (AllowStreamLocalForwarding).</source>
        <translation>%1 leitet den Socket %2 der Engine nicht weiter (AllowStreamLocalForwarding).</translation>
    </message>
    <message>
        <source>There is no engine socket %1 on %2: is the engine running there?</source>
        <translation>Auf %2 gibt es keinen Engine-Socket %1: läuft die Engine dort?</translation>
    </message>
</context>
<context>
    <name>sandbar::docker::DockerApi</name>
    <message>
        <source>session %1 no longer exists</source>
        <translation>Sitzung %1 existiert nicht mehr</translation>
    </message>
    <message>
        <source>The engine at %1 refused /_ping</source>
        <translation>Die Engine unter %1 hat /_ping abgelehnt</translation>
    </message>
    <message>
        <source>session %1 is not running (%2)</source>
        <translation>Sitzung %1 läuft nicht (%2)</translation>
    </message>
    <message>
        <source>Starting a command failed</source>
        <translation>Starten eines Befehls fehlgeschlagen</translation>
    </message>
    <message>
        <source>The engine did not return an exec id.</source>
        <translation>Die Engine hat keine Exec-ID zurückgegeben.</translation>
    </message>
    <message>
        <source>Reading a command&apos;s exit code failed</source>
        <translation>Lesen des Exit-Codes eines Befehls fehlgeschlagen</translation>
    </message>
    <message>
        <source>The engine did not report the command&apos;s exit code.</source>
        <translation>Die Engine hat den Exit-Code des Befehls nicht gemeldet.</translation>
    </message>
</context>
<context>
    <name>sandbar::docker::DockerDownloadJob</name>
    <message>
        <source>Writing the tar stream failed: %1</source>
        <translation>Schreiben des tar-Streams fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>The provider is gone.</source>
        <translation>Der Anbieter ist nicht mehr vorhanden.</translation>
    </message>
    <message>
        <source>Download failed</source>
        <translation>Herunterladen fehlgeschlagen</translation>
    </message>
    <message>
        <source>&apos;%1&apos; does not exist in session %2.</source>
        <translation>&apos;%1&apos; existiert nicht in Sitzung %2.</translation>
    </message>
    <message>
        <source>Download of &apos;%1&apos; failed</source>
        <translation>Herunterladen von &apos;%1&apos; fehlgeschlagen</translation>
    </message>
    <message>
        <source>Download of &apos;%1&apos; failed (tar exited with %2): %3</source>
        <translation>Herunterladen von &apos;%1&apos; fehlgeschlagen (tar wurde mit %2 beendet): %3</translation>
    </message>
    <message>
        <source>The download was cancelled.</source>
        <translation>Das Herunterladen wurde abgebrochen.</translation>
    </message>
</context>
<context>
    <name>sandbar::docker::DockerExecJob</name>
    <message>
        <source>The provider is gone.</source>
        <translation>Der Anbieter ist nicht mehr vorhanden.</translation>
    </message>
    <message>
        <source>No command to run.</source>
        <translation>Kein Befehl zum Ausführen.</translation>
    </message>
    <message>
        <source>The command&apos;s output ended in the middle of a frame.</source>
        <translation>Die Ausgabe des Befehls endete mitten in einem Frame.</translation>
    </message>
    <message>
        <source>The command was cancelled.</source>
        <translation>Der Befehl wurde abgebrochen.</translation>
    </message>
    <message>
        <source>The command `%1` answered more than %2 bytes; it was ended.</source>
        <translation>Der Befehl `%1` hat mehr als %2 Bytes geantwortet; er wurde beendet.</translation>
    </message>
    <message>
        <source>Its processes in the session were killed.</source>
        <translation>Seine Prozesse in der Sitzung wurden beendet (kill).</translation>
    </message>
    <message>
        <source>None of its processes was still running in the session.</source>
        <translation>Keiner seiner Prozesse lief in der Sitzung noch.</translation>
    </message>
    <message>
        <source>Its processes could not be killed and may still run: %1</source>
        <translation>Seine Prozesse konnten nicht beendet werden und laufen möglicherweise noch: %1</translation>
    </message>
</context>
<context>
    <name>sandbar::docker::DockerLogStream</name>
    <message>
        <source>The provider is gone.</source>
        <translation>Der Anbieter ist nicht mehr vorhanden.</translation>
    </message>
    <message>
        <source>Reading the session&apos;s log failed</source>
        <translation>Lesen des Sitzungsprotokolls fehlgeschlagen</translation>
    </message>
    <message>
        <source>The session&apos;s log ended in the middle of a frame.</source>
        <translation>Das Sitzungsprotokoll endete mitten in einem Frame.</translation>
    </message>
</context>
<context>
    <name>sandbar::docker::DockerProvider</name>
    <message>
        <source>This endpoint is a Podman engine; a Podman account describes it better.</source>
        <translation>Dieser Endpunkt ist eine Podman-Engine; ein Podman-Konto beschreibt ihn besser.</translation>
    </message>
    <message>
        <source>This endpoint is a Docker engine, not Podman.</source>
        <translation>Dieser Endpunkt ist eine Docker-Engine, nicht Podman.</translation>
    </message>
    <message>
        <source>Listing the images failed</source>
        <translation>Auflisten der Images fehlgeschlagen</translation>
    </message>
    <message>
        <source>Listing sessions failed</source>
        <translation>Auflisten der Sitzungen fehlgeschlagen</translation>
    </message>
    <message>
        <source>Choose an image for the session.</source>
        <translation>Wählen Sie ein Image für die Sitzung.</translation>
    </message>
    <message>
        <source>Podman&apos;s Docker-compatible API ignores GPU requests; use podman with CDI (podman run --device nvidia.com/gpu=all) outside Sandbar, or create the session without GPUs.</source>
        <translation>Die Docker-kompatible API von Podman ignoriert GPU-Anforderungen; verwenden Sie podman mit CDI (podman run --device nvidia.com/gpu=all) außerhalb von Sandbar, oder erstellen Sie die Sitzung ohne GPUs.</translation>
    </message>
    <message>
        <source>The memory limit must be at least 6 MiB.</source>
        <translation>Das Speicherlimit muss mindestens 6 MiB betragen.</translation>
    </message>
    <message>
        <source>The CPU limit must be more than zero.</source>
        <translation>Das CPU-Limit muss größer als null sein.</translation>
    </message>
    <message>
        <source>The mount target &apos;%1&apos; is not absolute.</source>
        <translation>Das Ziel des Einhängepunkts &apos;%1&apos; ist nicht absolut.</translation>
    </message>
    <message>
        <source>The tmpfs path &apos;%1&apos; is not absolute.</source>
        <translation>Der tmpfs-Pfad &apos;%1&apos; ist nicht absolut.</translation>
    </message>
    <message>
        <source>Image &apos;%1&apos; is not on the engine and could not be pulled: %2; run `docker pull %1` or choose another image</source>
        <translation>Image &apos;%1&apos; ist nicht in der Engine vorhanden und konnte nicht abgerufen werden: %2; führen Sie `docker pull %1` aus oder wählen Sie ein anderes Image</translation>
    </message>
    <message>
        <source>Creating…</source>
        <translation>Wird erstellt…</translation>
    </message>
    <message>
        <source>A session named &apos;%1&apos; already exists (%2).</source>
        <translation>Eine Sitzung namens &apos;%1&apos; existiert bereits (%2).</translation>
    </message>
    <message>
        <source>Creating the session failed</source>
        <translation>Erstellen der Sitzung fehlgeschlagen</translation>
    </message>
    <message>
        <source>The engine did not return the new session&apos;s id.</source>
        <translation>Die Engine hat die ID der neuen Sitzung nicht zurückgegeben.</translation>
    </message>
    <message>
        <source>Pulling image…</source>
        <translation>Image wird abgerufen…</translation>
    </message>
    <message>
        <source>Starting the session failed</source>
        <translation>Starten der Sitzung fehlgeschlagen</translation>
    </message>
    <message>
        <source>Reading session %1 failed</source>
        <translation>Lesen der Sitzung %1 fehlgeschlagen</translation>
    </message>
    <message>
        <source>Session %1 was created by Sandbar; there is nothing to adopt.</source>
        <translation>Sitzung %1 wurde von Sandbar erstellt; es gibt nichts zu übernehmen.</translation>
    </message>
    <message>
        <source>%1: session %2 is not in a state for that (%3)</source>
        <translation>%1: Sitzung %2 ist dafür nicht im passenden Zustand (%3)</translation>
    </message>
    <message>
        <source>Stopping failed</source>
        <translation>Stoppen fehlgeschlagen</translation>
    </message>
    <message>
        <source>session %1 is not running, so it cannot be killed</source>
        <translation>Sitzung %1 läuft nicht und kann daher nicht zwangsbeendet werden</translation>
    </message>
    <message>
        <source>Killing failed</source>
        <translation>Beenden erzwingen fehlgeschlagen</translation>
    </message>
    <message>
        <source>Removing failed</source>
        <translation>Entfernen fehlgeschlagen</translation>
    </message>
    <message>
        <source>Pausing failed</source>
        <translation>Pausieren fehlgeschlagen</translation>
    </message>
    <message>
        <source>Resuming failed</source>
        <translation>Fortsetzen fehlgeschlagen</translation>
    </message>
    <message>
        <source>Changing the time limit failed: %1</source>
        <translation>Ändern des Zeitlimits fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>the command in the session ended with code %1</source>
        <translation>der Befehl in der Sitzung endete mit Code %1</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a folder in session %2 (%3)</source>
        <translation>&apos;%1&apos; ist kein Ordner in Sitzung %2 (%3)</translation>
    </message>
    <message>
        <source>Listing &apos;%1&apos; failed: %2</source>
        <translation>Auflisten von &apos;%1&apos; fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>Statistics failed</source>
        <translation>Statistik fehlgeschlagen</translation>
    </message>
</context>
<context>
    <name>sandbar::docker::DockerPtyChannel</name>
    <message>
        <source>The provider is gone.</source>
        <translation>Der Anbieter ist nicht mehr vorhanden.</translation>
    </message>
    <message>
        <source>The terminal was closed; its program did not end on hang-up.</source>
        <translation>Das Terminal wurde geschlossen; sein Programm hat sich beim Auflegen (Hang-up) nicht beendet.</translation>
    </message>
</context>
<context>
    <name>sandbar::docker::DockerStatsStream</name>
    <message>
        <source>The provider is gone.</source>
        <translation>Der Anbieter ist nicht mehr vorhanden.</translation>
    </message>
    <message>
        <source>Statistics failed</source>
        <translation>Statistik fehlgeschlagen</translation>
    </message>
    <message>
        <source>The statistics of session %1 ended (it stopped).</source>
        <translation>Die Statistik der Sitzung %1 ist beendet (die Sitzung wurde gestoppt).</translation>
    </message>
</context>
<context>
    <name>sandbar::docker::DockerUploadJob</name>
    <message>
        <source>The provider is gone.</source>
        <translation>Der Anbieter ist nicht mehr vorhanden.</translation>
    </message>
    <message>
        <source>Upload failed</source>
        <translation>Hochladen fehlgeschlagen</translation>
    </message>
    <message>
        <source>The folder &apos;%1&apos; does not exist in session %2.</source>
        <translation>Der Ordner &apos;%1&apos; existiert nicht in Sitzung %2.</translation>
    </message>
    <message>
        <source>Cannot upload into &apos;%1&apos;: it is read-only (%2).</source>
        <translation>Hochladen nach &apos;%1&apos; nicht möglich: schreibgeschützt (%2).</translation>
    </message>
    <message>
        <source>Upload into &apos;%1&apos; failed</source>
        <translation>Hochladen nach &apos;%1&apos; fehlgeschlagen</translation>
    </message>
    <message>
        <source>Upload into &apos;%1&apos; failed (tar exited with %2): %3</source>
        <translation>Hochladen nach &apos;%1&apos; fehlgeschlagen (tar wurde mit %2 beendet): %3</translation>
    </message>
    <message>
        <source>The upload was cancelled.</source>
        <translation>Das Hochladen wurde abgebrochen.</translation>
    </message>
    <message>
        <source>Looking up &apos;%1&apos; failed</source>
        <translation>Nachschlagen von &apos;%1&apos; fehlgeschlagen</translation>
    </message>
    <message>
        <source>Could not put the uploaded item in place as &apos;%1&apos;: %2</source>
        <translation>Das hochgeladene Element konnte nicht als „%1“ abgelegt werden: %2</translation>
    </message>
</context>
<context>
    <name>sandbar::docker::PullProgress</name>
    <message>
        <source>Pulling image failed: %1</source>
        <translation>Abrufen des Images fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Pulling image… %1% (%2 of %3)</source>
        <translation>Image wird abgerufen… %1% (%2 von %3)</translation>
    </message>
    <message>
        <source>Pulling image… 100%</source>
        <translation>Image wird abgerufen… 100%</translation>
    </message>
    <message>
        <source>Pulling image…</source>
        <translation>Image wird abgerufen…</translation>
    </message>
    <message>
        <source>Pulling image… %1</source>
        <translation>Image wird abgerufen… %1</translation>
    </message>
</context>
<context>
    <name>sandbar::docker::Resolver</name>
    <message>
        <source>%1 is empty.</source>
        <translation>%1 ist leer.</translation>
    </message>
    <message>
        <source>Cannot parse %1: %2 at byte %3.</source>
        <translation>%1 kann nicht geparst werden: %2 bei Byte %3.</translation>
    </message>
    <message>
        <source>Cannot use %1: it holds no JSON object.</source>
        <translation>%1 kann nicht verwendet werden: enthält kein JSON-Objekt.</translation>
    </message>
    <message>
        <source>DOCKER_HOST is not usable: %1</source>
        <translation>DOCKER_HOST ist nicht verwendbar: %1</translation>
    </message>
    <message>
        <source>DOCKER_TLS_VERIFY is set but %1 does not exist.</source>
        <translation>DOCKER_TLS_VERIFY ist gesetzt, aber %1 existiert nicht.</translation>
    </message>
    <message>
        <source>CONTAINER_HOST is not usable: %1</source>
        <translation>CONTAINER_HOST ist nicht verwendbar: %1</translation>
    </message>
    <message>
        <source>context &quot;%1&quot; (%2)</source>
        <translation>Kontext &quot;%1&quot; (%2)</translation>
    </message>
    <message>
        <source>Docker %1 does not exist: %2 was not found.</source>
        <translation>Docker-%1 existiert nicht: %2 wurde nicht gefunden.</translation>
    </message>
    <message>
        <source>Docker %1 has no Endpoints.docker.Host in %2.</source>
        <translation>Docker-%1 hat kein Endpoints.docker.Host in %2.</translation>
    </message>
    <message>
        <source>Docker %1 in %2: %3</source>
        <translation>Docker-%1 in %2: %3</translation>
    </message>
    <message>
        <source>Cannot use %1: currentContext is not a string.</source>
        <translation>%1 kann nicht verwendet werden: currentContext ist keine Zeichenkette.</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Podman connection &quot;%1&quot;</source>
        <translation>Podman-Verbindung &quot;%1&quot;</translation>
    </message>
    <message>
        <source>Podman connection &quot;%1&quot; (%2)</source>
        <translation>Podman-Verbindung &quot;%1&quot; (%2)</translation>
    </message>
</context>
<context>
    <name>sandbar::docker::StreamDemuxer</name>
    <message>
        <source>The engine sent a stream frame of unknown type %1.</source>
        <translation>Die Engine hat einen Stream-Frame unbekannten Typs %1 gesendet.</translation>
    </message>
</context>
<context>
    <name>sandbar::e2b</name>
    <message>
        <source>E2B</source>
        <translation>E2B</translation>
    </message>
    <message>
        <source>Firecracker microVM sandboxes on E2B&apos;s cloud or a self-hosted E2B.</source>
        <translation>Firecracker-microVM-Sandboxes in der E2B-Cloud oder in einer selbst gehosteten E2B-Instanz.</translation>
    </message>
    <message>
        <source>sandbox</source>
        <translation>Sandbox</translation>
    </message>
    <message>
        <source>it has no sandboxID</source>
        <translation>sandboxID fehlt</translation>
    </message>
    <message>
        <source>it is not an object</source>
        <translation>kein Objekt</translation>
    </message>
    <message>
        <source>sandbox list</source>
        <translation>Sandbox-Liste</translation>
    </message>
    <message>
        <source>it is not an array</source>
        <translation>kein Array</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>Paused (not billed for compute)</source>
        <translation>Pausiert (Rechenzeit wird nicht berechnet)</translation>
    </message>
    <message>
        <source>metrics reply</source>
        <translation>Metrikantwort</translation>
    </message>
    <message>
        <source>E2B has no metrics for this sandbox yet</source>
        <translation>E2B hat noch keine Metriken für diese Sandbox</translation>
    </message>
    <message>
        <source>process event</source>
        <translation>Prozessereignis</translation>
    </message>
    <message>
        <source>its data is not base64</source>
        <translation>die Daten sind nicht base64-kodiert</translation>
    </message>
    <message>
        <source>it has no event</source>
        <translation>Ereignis fehlt</translation>
    </message>
    <message>
        <source>process list</source>
        <translation>Prozessliste</translation>
    </message>
    <message>
        <source>folder listing</source>
        <translation>Ordnerliste</translation>
    </message>
    <message>
        <source>file entry</source>
        <translation>Dateieintrag</translation>
    </message>
    <message>
        <source>it has no entry</source>
        <translation>Eintrag fehlt</translation>
    </message>
    <message>
        <source>%1: %2 (%3)</source>
        <translation>%1: %2 (%3)</translation>
    </message>
    <message>
        <source>The team&apos;s API key (e2b_…), kept in the keychain</source>
        <translation>Der API-Schlüssel des Teams (e2b_…), im Schlüsselbund aufbewahrt</translation>
    </message>
    <message>
        <source>E2B&apos;s control plane; change it for a self-hosted E2B</source>
        <translation>Die Steuerungs-API von E2B; für ein selbst betriebenes E2B ändern</translation>
    </message>
    <message>
        <source>Sandbox URL</source>
        <translation>Sandbox-URL</translation>
    </message>
    <message>
        <source>One URL for every sandbox&apos;s daemon (a self-hosted sandbox proxy); empty: E2B&apos;s per-sandbox hosts</source>
        <translation>Eine URL für den Daemon jeder Sandbox (ein selbst betriebener Sandbox-Proxy); leer: die Hosts von E2B je Sandbox</translation>
    </message>
    <message>
        <source>Plan&apos;s longest session</source>
        <translation>Längste Sitzung des Tarifs</translation>
    </message>
    <message>
        <source>What the team&apos;s plan allows: 1 hour on Hobby, 24 hours on Pro; longer time limits are shortened</source>
        <translation>Was der Tarif des Teams erlaubt: 1 Stunde bei Hobby, 24 Stunden bei Pro; längere Zeitlimits werden gekürzt</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>The sandbox user that terminals and files run as</source>
        <translation>Der Sandbox-Benutzer, unter dem Terminals und Dateien laufen</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>Vorlage</translation>
    </message>
    <message>
        <source>The E2B template (ID or alias) the sandbox starts from</source>
        <translation>Die E2B-Vorlage (ID oder Alias), mit der die Sandbox startet</translation>
    </message>
    <message>
        <source>Time limit</source>
        <translation>Zeitlimit</translation>
    </message>
    <message>
        <source>E2B ends the sandbox after this long (capped by the plan); it cannot run without a limit</source>
        <translation>E2B beendet die Sandbox nach dieser Zeit (begrenzt durch den Tarif); ohne Limit kann sie nicht laufen</translation>
    </message>
    <message>
        <source>Pause at the time limit</source>
        <translation>Beim Zeitlimit pausieren</translation>
    </message>
    <message>
        <source>Pause instead of ending when the time limit is reached (a paused sandbox is not billed for compute)</source>
        <translation>Pausieren statt beenden, wenn das Zeitlimit erreicht ist (eine pausierte Sandbox kostet keine Rechenzeit)</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>Umgebung</translation>
    </message>
    <message>
        <source>KEY=VALUE, one a line</source>
        <translation>KEY=VALUE, eine Angabe pro Zeile</translation>
    </message>
    <message>
        <source>Internet access</source>
        <translation>Internetzugang</translation>
    </message>
    <message>
        <source>Let the sandbox reach the internet (off: no outbound traffic)</source>
        <translation>Die Sandbox darf ins Internet (aus: kein ausgehender Verkehr)</translation>
    </message>
    <message>
        <source>The E2B sandbox URL</source>
        <translation>Die E2B-Sandbox-URL</translation>
    </message>
</context>
<context>
    <name>sandbar::e2b::E2bExecJob</name>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
</context>
<context>
    <name>sandbar::e2b::E2bProvider</name>
    <message>
        <source>E2B sandboxes always have a time limit; this one ends after %1 minutes, the plan&apos;s longest</source>
        <translation>E2B-Sandboxes haben immer ein Zeitlimit; diese endet nach %1 Minuten, dem Maximum des Tarifs</translation>
    </message>
    <message>
        <source>The time limit was shortened to %1 minutes, the longest the account&apos;s E2B plan allows</source>
        <translation>Das Zeitlimit wurde auf %1 Minuten verkürzt, das Maximum, das der E2B-Tarif des Kontos erlaubt</translation>
    </message>
    <message>
        <source>Creating the sandbox…</source>
        <translation>Sandbox wird erstellt…</translation>
    </message>
    <message>
        <source>E2B sandboxes always have a time limit</source>
        <translation>E2B-Sandboxes haben immer ein Zeitlimit</translation>
    </message>
    <message>
        <source>The sandbox is paused; resume it first</source>
        <translation>Die Sandbox ist pausiert; setzen Sie sie zuerst fort</translation>
    </message>
    <message>
        <source>E2B does not know the sandbox %1</source>
        <translation>E2B kennt die Sandbox %1 nicht</translation>
    </message>
    <message>
        <source>The account was closed</source>
        <translation>Das Konto wurde geschlossen</translation>
    </message>
    <message>
        <source>Refusing to delete the sandbox&apos;s root folder</source>
        <translation>Löschen des Stammordners der Sandbox wird verweigert</translation>
    </message>
    <message>
        <source>%1 does not exist in the sandbox</source>
        <translation>%1 existiert in der Sandbox nicht</translation>
    </message>
</context>
<context>
    <name>sandbar::e2b::ProcessStream</name>
    <message>
        <source>The account was closed</source>
        <translation>Das Konto wurde geschlossen</translation>
    </message>
    <message>
        <source>E2B ended the process stream: %1</source>
        <translation>E2B hat den Prozessstream beendet: %1</translation>
    </message>
    <message>
        <source>E2B closed the process stream before the process ended</source>
        <translation>E2B hat den Prozessstream geschlossen, bevor der Prozess beendet war</translation>
    </message>
    <message>
        <source>The process failed: %1</source>
        <translation>Der Prozess ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Input could not be sent: %1</source>
        <translation>Eingabe konnte nicht gesendet werden: %1</translation>
    </message>
</context>
<context>
    <name>sandbar::execreaper</name>
    <message>
        <source>the session has no shell (sh) to kill them with</source>
        <translation>die Sitzung hat keine Shell (sh), mit der sie sich beenden ließen</translation>
    </message>
    <message>
        <source>the killing command exited with %1: %2</source>
        <translation>der Befehl zum Beenden endete mit %1: %2</translation>
    </message>
</context>
<context>
    <name>sandbar::files</name>
    <message>
        <source>The destination is empty.</source>
        <translation>Das Ziel ist leer.</translation>
    </message>
    <message>
        <source>The source is empty.</source>
        <translation>Die Quelle ist leer.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a folder.</source>
        <translation>&apos;%1&apos; ist kein Ordner.</translation>
    </message>
    <message>
        <source>Cannot copy the folder &apos;%1&apos; onto the file &apos;%2&apos;.</source>
        <translation>Der Ordner &apos;%1&apos; kann nicht auf die Datei &apos;%2&apos; kopiert werden.</translation>
    </message>
    <message>
        <source>The destination folder &apos;%1&apos; must exist.</source>
        <translation>Der Zielordner &apos;%1&apos; muss existieren.</translation>
    </message>
    <message>
        <source>The folder &apos;%1&apos; does not exist.</source>
        <translation>Der Ordner &apos;%1&apos; existiert nicht.</translation>
    </message>
    <message>
        <source>Cannot copy &apos;%1&apos; to &apos;%2&apos;: name the copy.</source>
        <translation>&apos;%1&apos; kann nicht nach &apos;%2&apos; kopiert werden: Geben Sie der Kopie einen Namen.</translation>
    </message>
    <message>
        <source>The remote path is empty.</source>
        <translation>Der entfernte Pfad ist leer.</translation>
    </message>
    <message>
        <source>The remote path contains a NUL byte.</source>
        <translation>Der entfernte Pfad enthält ein NUL-Byte.</translation>
    </message>
    <message>
        <source>The remote path &apos;%1&apos; is not absolute.</source>
        <translation>Der entfernte Pfad &apos;%1&apos; ist nicht absolut.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a valid file name.</source>
        <translation>&apos;%1&apos; ist kein gültiger Dateiname.</translation>
    </message>
    <message>
        <source>An archive entry name contains a NUL byte.</source>
        <translation>Ein Archiveintragsname enthält ein NUL-Byte.</translation>
    </message>
    <message>
        <source>The archive entry &apos;%1&apos; has an absolute path.</source>
        <translation>Der Archiveintrag &apos;%1&apos; hat einen absoluten Pfad.</translation>
    </message>
    <message>
        <source>The archive entry &apos;%1&apos; climbs out of the target folder.</source>
        <translation>Der Archiveintrag &apos;%1&apos; führt aus dem Zielordner heraus.</translation>
    </message>
    <message>
        <source>An archive entry has an empty name.</source>
        <translation>Ein Archiveintrag hat einen leeren Namen.</translation>
    </message>
    <message>
        <source>The link &apos;%1&apos; points outside the target folder (&apos;%2&apos;).</source>
        <translation>Die Verknüpfung &apos;%1&apos; zeigt außerhalb des Zielordners (&apos;%2&apos;).</translation>
    </message>
    <message>
        <source>The file listing of &apos;%1&apos; was cut short.</source>
        <translation>Die Dateiliste von &apos;%1&apos; ist abgeschnitten.</translation>
    </message>
    <message>
        <source>The file listing of &apos;%1&apos; is unreadable.</source>
        <translation>Die Dateiliste von &apos;%1&apos; ist unlesbar.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a folder name.</source>
        <translation>&apos;%1&apos; ist kein Ordnername.</translation>
    </message>
</context>
<context>
    <name>sandbar::files::TarExtractor</name>
    <message>
        <source>The archive ended early (after %1 bytes).</source>
        <translation>Das Archiv endete vorzeitig (nach %1 Bytes).</translation>
    </message>
    <message>
        <source>The data is not a tar archive or it is damaged.</source>
        <translation>Die Daten sind kein tar-Archiv oder beschädigt.</translation>
    </message>
    <message>
        <source>An archive header has a bad size.</source>
        <translation>Ein Archiv-Header hat eine ungültige Größe.</translation>
    </message>
    <message>
        <source>An archive header is too large.</source>
        <translation>Ein Archiv-Header ist zu groß.</translation>
    </message>
    <message>
        <source>An archive has a damaged pax header.</source>
        <translation>Ein Archiv hat einen beschädigten pax-Header.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a folder.</source>
        <translation>&apos;%1&apos; ist kein Ordner.</translation>
    </message>
    <message>
        <source>Cannot create &apos;%1&apos;.</source>
        <translation>&apos;%1&apos; kann nicht erstellt werden.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; exists and is not a folder.</source>
        <translation>&apos;%1&apos; existiert und ist kein Ordner.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; exists and is a folder.</source>
        <translation>&apos;%1&apos; existiert und ist ein Ordner.</translation>
    </message>
    <message>
        <source>The archive entry &apos;%1&apos; links to &apos;%2&apos;, which it did not contain.</source>
        <translation>Der Archiveintrag &apos;%1&apos; verweist auf &apos;%2&apos;, das nicht im Archiv enthalten war.</translation>
    </message>
    <message>
        <source>Cannot write &apos;%1&apos;: %2</source>
        <translation>&apos;%1&apos; kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Writing &apos;%1&apos; failed: %2</source>
        <translation>Schreiben von &apos;%1&apos; fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>Finishing the extraction failed: %1</source>
        <translation>Das Abschließen des Entpackens schlug fehl: %1</translation>
    </message>
    <message>
        <source>Cannot resolve &apos;%1&apos;.</source>
        <translation>„%1“ lässt sich nicht auflösen.</translation>
    </message>
    <message>
        <source>Cannot start the extraction: %1</source>
        <translation>Das Entpacken kann nicht beginnen: %1</translation>
    </message>
    <message>
        <source>The archive entry &apos;%1&apos; was refused: %2</source>
        <translation>Der Archiveintrag „%1“ wurde abgelehnt: %2</translation>
    </message>
    <message>
        <source>The archive entry &apos;%1…&apos; has a name too long for a file.</source>
        <translation>Der Archiveintrag „%1…“ hat einen zu langen Namen für eine Datei.</translation>
    </message>
    <message>
        <source>The archive entry &apos;%1…&apos; has a path too long to extract.</source>
        <translation>Der Archiveintrag „%1…“ hat einen zu langen Pfad zum Entpacken.</translation>
    </message>
</context>
<context>
    <name>sandbar::files::TarSource</name>
    <message>
        <source>&apos;%1&apos; does not exist.</source>
        <translation>&apos;%1&apos; existiert nicht.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; cannot be uploaded by that name.</source>
        <translation>&apos;%1&apos; kann unter diesem Namen nicht hochgeladen werden.</translation>
    </message>
    <message>
        <source>Cannot open the archive stream.</source>
        <translation>Der Archiv-Stream kann nicht geöffnet werden.</translation>
    </message>
    <message>
        <source>Cannot read &apos;%1&apos;: %2</source>
        <translation>&apos;%1&apos; kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is gone: it was removed while it was being copied.</source>
        <translation>„%1“ ist verschwunden: Es wurde während des Kopierens entfernt.</translation>
    </message>
    <message>
        <source>Cannot read &apos;%1&apos;: it is outside &apos;%2&apos;.</source>
        <translation>„%1“ kann nicht gelesen werden: Es liegt außerhalb von „%2“.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; was replaced while it was being copied.</source>
        <translation>„%1“ wurde ersetzt, während es kopiert wurde.</translation>
    </message>
</context>
<context>
    <name>sandbar::labels</name>
    <message>
        <source>A label needs a key: KEY=VALUE</source>
        <translation>Ein Label braucht einen Schlüssel: KEY=VALUE</translation>
    </message>
    <message>
        <source>A label&apos;s key has no spaces: %1</source>
        <translation>Der Schlüssel eines Labels enthält keine Leerzeichen: %1</translation>
    </message>
    <message>
        <source>%1 is one of Sandbar&apos;s own labels</source>
        <translation>%1 ist eines von Sandbars eigenen Labels</translation>
    </message>
</context>
<context>
    <name>sandbar::local</name>
    <message>
        <source>cgroup limits are turned off for this account</source>
        <translation>cgroup-Limits sind für dieses Konto ausgeschaltet</translation>
    </message>
    <message>
        <source>%1 is not a writable cgroup v2 folder delegating the cpu and memory controllers</source>
        <translation>%1 ist kein beschreibbarer cgroup-v2-Ordner, der die Controller cpu und memory delegiert</translation>
    </message>
    <message>
        <source>cgroup v2 is not delegated to this user (start Sandbar from a systemd user session with Delegate=yes)</source>
        <translation>cgroup v2 ist nicht an diesen Benutzer delegiert (starten Sie Sandbar aus einer systemd-Benutzersitzung mit Delegate=yes)</translation>
    </message>
    <message>
        <source>the cgroup v1 cpu and memory hierarchies are not writable by this user</source>
        <translation>die cgroup-v1-Hierarchien cpu und memory sind für diesen Benutzer nicht beschreibbar</translation>
    </message>
    <message>
        <source>CPU, memory and process limits cannot be enforced here: %1. Create the session without limits, or use a provider that enforces them.</source>
        <translation>CPU-, Speicher- und Prozesslimits können hier nicht durchgesetzt werden: %1. Erstellen Sie die Sitzung ohne Limits oder verwenden Sie einen Anbieter, der sie durchsetzt.</translation>
    </message>
    <message>
        <source>Could not set the session&apos;s limits (%1).</source>
        <translation>Die Limits der Sitzung konnten nicht gesetzt werden (%1).</translation>
    </message>
    <message>
        <source>nvidia-smi could not list this computer&apos;s GPUs: %1</source>
        <translation>nvidia-smi konnte die GPUs dieses Computers nicht auflisten: %1</translation>
    </message>
    <message>
        <source>nvidia-smi could not be run: %1</source>
        <translation>nvidia-smi konnte nicht ausgeführt werden: %1</translation>
    </message>
    <message>
        <source>Could not create %1.</source>
        <translation>%1 konnte nicht erstellt werden.</translation>
    </message>
    <message>
        <source>Could not copy /etc/%1 for the sandbox.</source>
        <translation>/etc/%1 konnte nicht für die Sandbox kopiert werden.</translation>
    </message>
    <message>
        <source>Could not write the sandbox&apos;s /etc in %1.</source>
        <translation>Das /etc der Sandbox konnte nicht in %1 geschrieben werden.</translation>
    </message>
    <message>
        <source>Could not put the sandbox&apos;s /etc in place in %1.</source>
        <translation>Das /etc der Sandbox konnte nicht in %1 eingerichtet werden.</translation>
    </message>
    <message>
        <source>The folder to mount, %1, does not exist.</source>
        <translation>Der einzuhängende Ordner %1 existiert nicht.</translation>
    </message>
    <message>
        <source>A mount needs an absolute path inside the sandbox, not &quot;%1&quot;.</source>
        <translation>Ein Einhängepunkt benötigt einen absoluten Pfad in der Sandbox, nicht &quot;%1&quot;.</translation>
    </message>
    <message>
        <source>%1 cannot be mounted over: the sandbox needs it as it is.</source>
        <translation>Über %1 kann nichts eingehängt werden: Die Sandbox benötigt es unverändert.</translation>
    </message>
    <message>
        <source>/workspace is the session&apos;s own folder; mount inside it or elsewhere.</source>
        <translation>/workspace ist der eigene Ordner der Sitzung; hängen Sie innerhalb davon oder anderswo ein.</translation>
    </message>
    <message>
        <source>No NVIDIA GPU on this computer (no %1); create the session without GPUs.</source>
        <translation>Keine NVIDIA-GPU auf diesem Computer (kein %1); erstellen Sie die Sitzung ohne GPUs.</translation>
    </message>
    <message>
        <source>Local sandboxes cannot be given a MIG device (%1); give whole GPUs.</source>
        <translation>Lokalen Sandboxes kann kein MIG-Gerät zugewiesen werden (%1); weisen Sie ganze GPUs zu.</translation>
    </message>
    <message>
        <source>Finding GPU %1 needs nvidia-smi, which is not installed; give the GPU&apos;s number N of /dev/nvidiaN instead.</source>
        <translation>Zum Finden von GPU %1 wird nvidia-smi benötigt, das nicht installiert ist; geben Sie stattdessen die Nummer N der GPU aus /dev/nvidiaN an.</translation>
    </message>
    <message>
        <source>No GPU %1 on this computer (nvidia-smi -L lists them).</source>
        <translation>Keine GPU %1 auf diesem Computer (nvidia-smi -L listet sie auf).</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a GPU UUID or number.</source>
        <translation>&apos;%1&apos; ist weder eine GPU-UUID noch eine GPU-Nummer.</translation>
    </message>
    <message>
        <source>GPU %1 is not on this computer (no %2).</source>
        <translation>GPU %1 ist nicht auf diesem Computer (kein %2).</translation>
    </message>
    <message>
        <source>%1 GPUs asked for; this computer has %2.</source>
        <translation>%1 GPUs angefordert; dieser Computer hat %2.</translation>
    </message>
    <message>
        <source>The session&apos;s state file is damaged.</source>
        <translation>Die Statusdatei der Sitzung ist beschädigt.</translation>
    </message>
    <message>
        <source>No session in %1.</source>
        <translation>Keine Sitzung in %1.</translation>
    </message>
    <message>
        <source>Could not save the session&apos;s state in %1.</source>
        <translation>Der Status der Sitzung konnte nicht in %1 gespeichert werden.</translation>
    </message>
    <message>
        <source>Killed</source>
        <translation>Zwangsbeendet</translation>
    </message>
    <message>
        <source>Time limit reached</source>
        <translation>Zeitlimit erreicht</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>Gestoppt</translation>
    </message>
    <message>
        <source>Ended unexpectedly</source>
        <translation>Unerwartet beendet</translation>
    </message>
    <message>
        <source>The sandbox is no longer running and left no exit status (was the computer restarted?). Its workspace is kept until the session is removed.</source>
        <translation>Die Sandbox läuft nicht mehr und hat keinen Exit-Status hinterlassen (wurde der Computer neu gestartet?). Ihr Arbeitsbereich bleibt erhalten, bis die Sitzung entfernt wird.</translation>
    </message>
    <message>
        <source>The sandbox agent was killed from outside Sandbar (signal %1); its terminals and commands ended with it. The workspace is kept until the session is removed.</source>
        <translation>Der Sandbox-Agent wurde von außerhalb von Sandbar beendet (Signal %1); seine Terminals und Befehle wurden mit ihm beendet. Der Arbeitsbereich bleibt erhalten, bis die Sitzung entfernt wird.</translation>
    </message>
    <message>
        <source>The sandbox agent ended unexpectedly (exit code %1). The workspace is kept until the session is removed.</source>
        <translation>Der Sandbox-Agent wurde unerwartet beendet (Exit-Code %1). Der Arbeitsbereich bleibt erhalten, bis die Sitzung entfernt wird.</translation>
    </message>
    <message>
        <source>The sandbox agent is gone (killed from outside Sandbar, or crashed); its terminals and commands ended with it. The workspace is kept until the session is removed.</source>
        <translation>Der Sandbox-Agent ist weg (von außerhalb Sandbars beendet oder abgestürzt); seine Terminals und Befehle endeten mit ihm. Der Arbeitsbereich bleibt erhalten, bis die Sitzung entfernt wird.</translation>
    </message>
    <message>
        <source>The sandbox is no longer running: its bubblewrap process was killed from outside Sandbar, and its terminals and commands ended with it. The workspace is kept until the session is removed.</source>
        <translation>Die Sandbox läuft nicht mehr: Ihr bubblewrap-Prozess wurde von außerhalb Sandbars beendet, und ihre Terminals und Befehle endeten mit ihm. Der Arbeitsbereich bleibt erhalten, bis die Sitzung entfernt wird.</translation>
    </message>
</context>
<context>
    <name>sandbar::local::AgentConnection</name>
    <message>
        <source>The session is not running (%1).</source>
        <translation>Die Sitzung läuft nicht (%1).</translation>
    </message>
    <message>
        <source>The sandbox agent closed the connection.</source>
        <translation>Der Sandbox-Agent hat die Verbindung geschlossen.</translation>
    </message>
    <message>
        <source>The sandbox agent does not answer (%1).</source>
        <translation>Der Sandbox-Agent antwortet nicht (%1).</translation>
    </message>
    <message>
        <source>The sandbox agent refused the request.</source>
        <translation>Der Sandbox-Agent hat die Anfrage abgelehnt.</translation>
    </message>
    <message>
        <source>The sandbox agent sent garbage: %1</source>
        <translation>Der Sandbox-Agent hat unlesbare Daten gesendet: %1</translation>
    </message>
    <message>
        <source>The sandbox runs agent protocol %1; this Sandbar speaks %2. Remove the session or use the Sandbar version that created it.</source>
        <translation>Die Sandbox verwendet Agent-Protokoll %1; dieses Sandbar spricht %2. Entfernen Sie die Sitzung oder verwenden Sie die Sandbar-Version, mit der sie erstellt wurde.</translation>
    </message>
    <message>
        <source>The sandbox agent did not greet within %1 s.</source>
        <translation>Der Sandbox-Agent hat sich nicht innerhalb von %1 s gemeldet.</translation>
    </message>
    <message>
        <source>The sandbox agent sent a malformed %1 frame.</source>
        <translation>Der Sandbox-Agent hat einen fehlerhaften %1-Rahmen gesendet.</translation>
    </message>
    <message>
        <source>The sandbox agent closed the connection in mid-frame.</source>
        <translation>Der Sandbox-Agent hat die Verbindung mitten in einem Rahmen geschlossen.</translation>
    </message>
    <message>
        <source>The sandbox agent sent %1 before its Hello.</source>
        <translation>Der Sandbox-Agent hat %1 vor seinem Hello gesendet.</translation>
    </message>
</context>
<context>
    <name>sandbar::local::LocalChannels</name>
    <message>
        <source>The sandbox agent sent a malformed exit status.</source>
        <translation>Der Sandbox-Agent hat einen fehlerhaften Exit-Status gesendet.</translation>
    </message>
</context>
<context>
    <name>sandbar::local::LocalDownloadJob</name>
    <message>
        <source>Cannot download %1 into %2.</source>
        <translation>%1 kann nicht nach %2 heruntergeladen werden.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Cannot create %1.</source>
        <translation>%1 kann nicht erstellt werden.</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
</context>
<context>
    <name>sandbar::local::LocalEnvironment</name>
    <message>
        <source>Local sandboxes use bubblewrap, which exists only on Linux. On this system use Docker Desktop (add a Docker account) or a cloud provider.</source>
        <translation>Lokale Sandboxes verwenden bubblewrap, das es nur unter Linux gibt. Verwenden Sie auf diesem System Docker Desktop (fügen Sie ein Docker-Konto hinzu) oder einen Cloud-Anbieter.</translation>
    </message>
    <message>
        <source>bubblewrap is not installed, and Sandbar never falls back to an unsandboxed shell. Install it (Debian/Ubuntu: sudo apt install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap) and try again.</source>
        <translation>bubblewrap ist nicht installiert, und Sandbar weicht niemals auf eine Shell ohne Sandbox aus. Installieren Sie es (Debian/Ubuntu: sudo apt install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap) und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>sandbar-agent was not found next to Sandbar or in ../libexec/sandbar. Reinstall Sandbar or set SANDBAR_AGENT_PATH to its location.</source>
        <translation>sandbar-agent wurde weder neben Sandbar noch in ../libexec/sandbar gefunden. Installieren Sie Sandbar neu oder setzen Sie SANDBAR_AGENT_PATH auf seinen Speicherort.</translation>
    </message>
</context>
<context>
    <name>sandbar::local::LocalExecJob</name>
    <message>
        <source>Local sandboxes run everything as the user &quot;sandbox&quot; (uid 1000).</source>
        <translation>Lokale Sandboxes führen alles als Benutzer &quot;sandbox&quot; (uid 1000) aus.</translation>
    </message>
    <message>
        <source>No command to run.</source>
        <translation>Kein Befehl zum Ausführen.</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
</context>
<context>
    <name>sandbar::local::LocalProvider</name>
    <message>
        <source>No Local session &quot;%1&quot;.</source>
        <translation>Keine lokale Sitzung &quot;%1&quot;.</translation>
    </message>
    <message>
        <source>The session is not running (%1).</source>
        <translation>Die Sitzung läuft nicht (%1).</translation>
    </message>
    <message>
        <source>The sandbox agent did not answer in time.</source>
        <translation>Der Sandbox-Agent hat nicht rechtzeitig geantwortet.</translation>
    </message>
    <message>
        <source>slirp4netns is not installed: sessions can only have loopback networking (sudo apt install slirp4netns).</source>
        <translation>slirp4netns ist nicht installiert: Sitzungen können nur Loopback-Netzwerk haben (sudo apt install slirp4netns).</translation>
    </message>
    <message>
        <source>CPU and memory limits cannot be enforced: %1.</source>
        <translation>CPU- und Speicherlimits können nicht durchgesetzt werden: %1.</translation>
    </message>
    <message>
        <source>bubblewrap could not be run: %1</source>
        <translation>bubblewrap konnte nicht ausgeführt werden: %1</translation>
    </message>
    <message>
        <source>Network for a Local sandbox needs slirp4netns, which is not installed (sudo apt install slirp4netns). Create the session without network, or install it.</source>
        <translation>Netzwerk für eine lokale Sandbox benötigt slirp4netns, das nicht installiert ist (sudo apt install slirp4netns). Erstellen Sie die Sitzung ohne Netzwerk oder installieren Sie es.</translation>
    </message>
    <message>
        <source>Local sandboxes always run as the user &quot;sandbox&quot; (uid 1000).</source>
        <translation>Lokale Sandboxes laufen immer als Benutzer &quot;sandbox&quot; (uid 1000).</translation>
    </message>
    <message>
        <source>Limits and the time limit must be positive.</source>
        <translation>Limits und das Zeitlimit müssen positiv sein.</translation>
    </message>
    <message>
        <source>The data folder %1 is too deep for the agent&apos;s socket path; choose a shorter data folder for this account.</source>
        <translation>Der Datenordner %1 ist für den Socket-Pfad des Agenten zu tief verschachtelt; wählen Sie für dieses Konto einen kürzeren Datenordner.</translation>
    </message>
    <message>
        <source>Could not create the session folder %1.</source>
        <translation>Der Sitzungsordner %1 konnte nicht erstellt werden.</translation>
    </message>
    <message>
        <source>Could not write the session&apos;s files in %1.</source>
        <translation>Die Dateien der Sitzung konnten nicht in %1 geschrieben werden.</translation>
    </message>
    <message>
        <source>Could not write %1.</source>
        <translation>%1 konnte nicht geschrieben werden.</translation>
    </message>
    <message>
        <source>Could not run sandbar-agent: %1</source>
        <translation>sandbar-agent konnte nicht ausgeführt werden: %1</translation>
    </message>
    <message>
        <source>Could not start the sandbox: %1</source>
        <translation>Die Sandbox konnte nicht gestartet werden: %1</translation>
    </message>
    <message>
        <source>Could not delete %1 completely.</source>
        <translation>%1 konnte nicht vollständig gelöscht werden.</translation>
    </message>
    <message>
        <source>The time limit cannot be negative.</source>
        <translation>Das Zeitlimit darf nicht negativ sein.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an absolute path.</source>
        <translation>&apos;%1&apos; ist kein absoluter Pfad.</translation>
    </message>
    <message>
        <source>Local sandbox</source>
        <translation>Lokale Sandbox</translation>
    </message>
    <message>
        <source>bubblewrap sandboxes on this computer: no daemon, no key, network off by default</source>
        <translation>bubblewrap-Sandboxes auf diesem Computer: kein Daemon, kein Schlüssel, Netzwerk standardmäßig aus</translation>
    </message>
    <message>
        <source>Data folder</source>
        <translation>Datenordner</translation>
    </message>
    <message>
        <source>Where sessions and their workspaces are kept; empty: Sandbar&apos;s own data folder</source>
        <translation>Wo Sitzungen und ihre Arbeitsbereiche abgelegt werden; leer: Sandbars eigener Datenordner</translation>
    </message>
    <message>
        <source>cgroup folder</source>
        <translation>cgroup-Ordner</translation>
    </message>
    <message>
        <source>A cgroup v2 folder delegated to Sandbar for CPU and memory limits; empty: detect; none: no limits</source>
        <translation>Ein an Sandbar delegierter cgroup-v2-Ordner für CPU- und Speicherlimits; leer: automatisch erkennen; none: keine Limits</translation>
    </message>
    <message>
        <source>CPUs</source>
        <translation>CPUs</translation>
    </message>
    <message>
        <source>Cores the session may use (cgroups)</source>
        <translation>Kerne, die die Sitzung nutzen darf (cgroups)</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>Memory limit (cgroups)</source>
        <translation>Speicherlimit (cgroups)</translation>
    </message>
    <message>
        <source>Processes</source>
        <translation>Prozesse</translation>
    </message>
    <message>
        <source>Most processes at once (cgroups)</source>
        <translation>Höchstzahl gleichzeitiger Prozesse (cgroups)</translation>
    </message>
    <message>
        <source>Time limit</source>
        <translation>Zeitlimit</translation>
    </message>
    <message>
        <source>The sandbox ends itself after this long; 0: none</source>
        <translation>Die Sandbox beendet sich nach dieser Zeit selbst; 0: kein Limit</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>Netzwerk</translation>
    </message>
    <message>
        <source>User-mode network (slirp4netns); off: loopback only</source>
        <translation>Netzwerk im Benutzermodus (slirp4netns); aus: nur Loopback</translation>
    </message>
    <message>
        <source>Mounts</source>
        <translation>Einhängepunkte</translation>
    </message>
    <message>
        <source>HOST:PATH[:ro] folders to share, one a line</source>
        <translation>HOST:PATH[:ro] – freizugebende Ordner, einer pro Zeile</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>Umgebung</translation>
    </message>
    <message>
        <source>KEY=VALUE, one a line</source>
        <translation>KEY=VALUE, eine Angabe pro Zeile</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>all, a number of GPUs, or GPU numbers (N of /dev/nvidiaN) or UUIDs separated by commas; NVIDIA only</source>
        <translation>all, eine Anzahl von GPUs oder durch Kommas getrennte GPU-Nummern (N von /dev/nvidiaN) bzw. UUIDs; nur NVIDIA</translation>
    </message>
    <message>
        <source>Forwarding ports needs the network on: a session without a network has no port to forward. Turn the network on or leave out the ports.</source>
        <translation>Ports weiterzuleiten erfordert ein eingeschaltetes Netzwerk: Eine Sitzung ohne Netzwerk hat keinen Port zum Weiterleiten. Schalten Sie das Netzwerk ein oder lassen Sie die Ports weg.</translation>
    </message>
    <message>
        <source>Port %1 is not between 1 and 65535.</source>
        <translation>Port %1 liegt nicht zwischen 1 und 65535.</translation>
    </message>
    <message>
        <source>Port protocol &apos;%1&apos; is not tcp or udp.</source>
        <translation>Das Portprotokoll „%1“ ist weder tcp noch udp.</translation>
    </message>
    <message>
        <source>Port %1 on 127.0.0.1 could not be forwarded to session port %2/%3: another program probably uses it (slirp4netns: %4). Choose another host port, or leave it out for a free one. The session was removed.</source>
        <translation>Port %1 auf 127.0.0.1 konnte nicht an den Sitzungsport %2/%3 weitergeleitet werden: Vermutlich verwendet ihn ein anderes Programm (slirp4netns: %4). Wählen Sie einen anderen Host-Port oder lassen Sie ihn weg, um einen freien zu erhalten. Die Sitzung wurde entfernt.</translation>
    </message>
    <message>
        <source>Session port %1/%2 could not be forwarded to this computer (slirp4netns: %3). The session was removed.</source>
        <translation>Der Sitzungsport %1/%2 konnte nicht an diesen Computer weitergeleitet werden (slirp4netns: %3). Die Sitzung wurde entfernt.</translation>
    </message>
    <message>
        <source>Forwarded ports</source>
        <translation>Weitergeleitete Ports</translation>
    </message>
    <message>
        <source>[HOST:]SESSION[/udp], one a line; reachable on 127.0.0.1 only; needs the network on</source>
        <translation>[HOST:]SESSION[/udp], einer pro Zeile; nur über 127.0.0.1 erreichbar; erfordert eingeschaltetes Netzwerk</translation>
    </message>
</context>
<context>
    <name>sandbar::local::LocalPtyChannel</name>
    <message>
        <source>The sandbox stopped reading terminal input.</source>
        <translation>Die Sandbox liest keine Terminaleingaben mehr.</translation>
    </message>
    <message>
        <source>The sandbox agent answered the terminal request malformed.</source>
        <translation>Der Sandbox-Agent hat die Terminalanfrage fehlerhaft beantwortet.</translation>
    </message>
</context>
<context>
    <name>sandbar::local::LocalTarJob</name>
    <message>
        <source>Cannot make a temporary folder: %1</source>
        <translation>Temporärer Ordner kann nicht angelegt werden: %1</translation>
    </message>
    <message>
        <source>The tar stream is not open.</source>
        <translation>Der tar-Stream ist nicht geöffnet.</translation>
    </message>
    <message>
        <source>The provider is gone.</source>
        <translation>Der Anbieter ist nicht mehr vorhanden.</translation>
    </message>
    <message>
        <source>Writing the tar stream failed: %1</source>
        <translation>Schreiben des tar-Streams fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>The copy was cancelled.</source>
        <translation>Das Kopieren wurde abgebrochen.</translation>
    </message>
</context>
<context>
    <name>sandbar::local::LocalUploadJob</name>
    <message>
        <source>&apos;%1&apos; cannot name a copy.</source>
        <translation>&apos;%1&apos; ist kein gültiger Name für eine Kopie.</translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation>%1 existiert nicht.</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
</context>
<context>
    <name>sandbar::local::SessionStore</name>
    <message>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>Ending</source>
        <translation>Wird beendet</translation>
    </message>
</context>
<context>
    <name>sandbar::mcp</name>
    <message numerus="yes">
        <source>%n hour(s)</source>
        <translation>
            <numerusform>%n Stunde</numerusform>
            <numerusform>%n Stunden</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n minute(s)</source>
        <translation>
            <numerusform>%n Minute</numerusform>
            <numerusform>%n Minuten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n second(s)</source>
        <translation>
            <numerusform>%n Sekunde</numerusform>
            <numerusform>%n Sekunden</numerusform>
        </translation>
    </message>
    <message>
        <source>&quot;version&quot; must be 1.</source>
        <translation>&quot;version&quot; muss 1 sein.</translation>
    </message>
    <message>
        <source>Unknown key &quot;%1&quot;.</source>
        <translation>Unbekannter Schlüssel &quot;%1&quot;.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; must be a list of names.</source>
        <translation>&quot;%1&quot; muss eine Liste von Namen sein.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; must be a whole number of at least 0.</source>
        <translation>&quot;%1&quot; muss eine ganze Zahl von mindestens 0 sein.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; must be a number of at least 0.</source>
        <translation>&quot;%1&quot; muss eine Zahl von mindestens 0 sein.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; must be true or false.</source>
        <translation>&quot;%1&quot; muss true oder false sein.</translation>
    </message>
    <message>
        <source>&quot;default_ttl_seconds&quot; is longer than &quot;max_ttl_seconds&quot;.</source>
        <translation>&quot;default_ttl_seconds&quot; ist länger als &quot;max_ttl_seconds&quot;.</translation>
    </message>
    <message>
        <source>&quot;default_ttl_seconds&quot; is 0 (no limit) while &quot;max_ttl_seconds&quot; sets one.</source>
        <translation>&quot;default_ttl_seconds&quot; ist 0 (kein Limit), während &quot;max_ttl_seconds&quot; eines setzt.</translation>
    </message>
    <message>
        <source>The agent policy %1 cannot be read: %2</source>
        <translation>Die Agentenrichtlinie %1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>The agent policy %1 is not a JSON object (%2). Fix or remove it; until then agents may do nothing.</source>
        <translation>Die Agentenrichtlinie %1 ist kein JSON-Objekt (%2). Korrigieren oder entfernen Sie sie; bis dahin dürfen Agenten nichts tun.</translation>
    </message>
    <message>
        <source>not an object</source>
        <translation>kein Objekt</translation>
    </message>
    <message>
        <source>The agent policy %1 is not valid: %2 Fix or remove it; until then agents may do nothing.</source>
        <translation>Die Agentenrichtlinie %1 ist ungültig: %2 Korrigieren oder entfernen Sie sie; bis dahin dürfen Agenten nichts tun.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>The tool &apos;%1&apos; is disabled by the agent policy.</source>
        <translation>Das Werkzeug „%1“ ist durch die Agentenrichtlinie deaktiviert.</translation>
    </message>
    <message>
        <source>the policy asks for approval of every %1 call</source>
        <translation>die Richtlinie verlangt eine Freigabe für jeden %1-Aufruf</translation>
    </message>
    <message>
        <source>Account &apos;%1&apos; is not allowed by the agent policy (allowed: %2).</source>
        <translation>Die Agentenrichtlinie erlaubt das Konto „%1“ nicht (erlaubt: %2).</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Network access is not allowed by the agent policy; create the session without network.</source>
        <translation>Die Agentenrichtlinie erlaubt keinen Netzwerkzugriff; erstellen Sie die Sitzung ohne Netzwerk.</translation>
    </message>
    <message>
        <source>Host folders are not allowed by the agent policy; create the session without mounts.</source>
        <translation>Die Agentenrichtlinie erlaubt keine Host-Ordner; erstellen Sie die Sitzung ohne Einhängepunkte.</translation>
    </message>
    <message>
        <source>A ttl of %1 is over the agent policy&apos;s maximum of %2; ask for %2 or less.</source>
        <translation>Eine ttl von %1 liegt über dem Maximum der Agentenrichtlinie von %2; fordern Sie %2 oder weniger an.</translation>
    </message>
    <message>
        <source>0 (no limit)</source>
        <translation>0 (kein Limit)</translation>
    </message>
    <message numerus="yes">
        <source>Agents already have %n session(s), the agent policy&apos;s maximum; remove one first (list_sessions shows them).</source>
        <translation>
            <numerusform>Agenten haben bereits %n Sitzung, das Maximum der Agentenrichtlinie; entfernen Sie zuerst eine (list_sessions zeigt sie).</numerusform>
            <numerusform>Agenten haben bereits %n Sitzungen, das Maximum der Agentenrichtlinie; entfernen Sie zuerst eine (list_sessions zeigt sie).</numerusform>
        </translation>
    </message>
    <message>
        <source>The price of this session is not known (give cpus and memory, or check the catalog), so the agent policy&apos;s limit of $%1 an hour cannot be checked.</source>
        <translation>Der Preis dieser Sitzung ist nicht bekannt (geben Sie cpus und memory an oder prüfen Sie den Katalog), daher kann das Limit der Agentenrichtlinie von $%1 pro Stunde nicht geprüft werden.</translation>
    </message>
    <message>
        <source>This session (about $%1 an hour) would bring agents&apos; sessions to $%2 an hour, over the agent policy&apos;s limit of $%3; ask for fewer resources or stop a session.</source>
        <translation>Diese Sitzung (etwa $%1 pro Stunde) würde die Sitzungen der Agenten auf $%2 pro Stunde bringen, über das Limit der Agentenrichtlinie von $%3; fordern Sie weniger Ressourcen an oder stoppen Sie eine Sitzung.</translation>
    </message>
    <message>
        <source>it creates a session on the paid account &apos;%1&apos;</source>
        <translation>er erstellt eine Sitzung im kostenpflichtigen Konto „%1“</translation>
    </message>
    <message>
        <source>the session has network access</source>
        <translation>die Sitzung hat Netzwerkzugriff</translation>
    </message>
    <message>
        <source>it mounts folders of this computer into the session</source>
        <translation>er hängt Ordner dieses Computers in die Sitzung ein</translation>
    </message>
    <message>
        <source>Host paths are not allowed by the agent policy, so %1 cannot read %2.</source>
        <translation>Die Agentenrichtlinie erlaubt keine Host-Pfade, daher kann %1 den Pfad %2 nicht lesen.</translation>
    </message>
    <message>
        <source>it reads %1 from this computer</source>
        <translation>er liest %1 von diesem Computer</translation>
    </message>
</context>
<context>
    <name>sandbar::mcp::AgentHub</name>
    <message>
        <source>Another Sandbar window already listens for agents at %1.</source>
        <translation>Ein anderes Sandbar-Fenster lauscht bereits unter %1 auf Agenten.</translation>
    </message>
    <message>
        <source>Could not listen for agents at %1: %2</source>
        <translation>Lauschen auf Agenten unter %1 nicht möglich: %2</translation>
    </message>
    <message>
        <source>Too many calls are waiting for approval.</source>
        <translation>Zu viele Aufrufe warten auf Freigabe.</translation>
    </message>
</context>
<context>
    <name>sandbar::metrics::GpuSource</name>
    <message>
        <source>no NVIDIA driver</source>
        <translation>kein NVIDIA-Treiber</translation>
    </message>
    <message>
        <source>the NVIDIA driver is too old for GPU statistics</source>
        <translation>der NVIDIA-Treiber ist zu alt für GPU-Statistiken</translation>
    </message>
    <message>
        <source>the NVIDIA driver stopped answering</source>
        <translation>der NVIDIA-Treiber antwortet nicht mehr</translation>
    </message>
    <message>
        <source>nvidia-smi: %1</source>
        <translation>nvidia-smi: %1</translation>
    </message>
    <message>
        <source>nvidia-smi failed with exit code %1: %2</source>
        <translation>nvidia-smi ist mit Exit-Code %1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>nvidia-smi printed no GPU rows Sandbar understands</source>
        <translation>nvidia-smi hat keine GPU-Zeilen ausgegeben, die Sandbar versteht</translation>
    </message>
    <message>
        <source>no provider for the session</source>
        <translation>kein Anbieter für die Sitzung</translation>
    </message>
    <message>
        <source>this session cannot run commands</source>
        <translation>diese Sitzung kann keine Befehle ausführen</translation>
    </message>
    <message>
        <source>nvidia-smi printed too much</source>
        <translation>nvidia-smi hat zu viel ausgegeben</translation>
    </message>
    <message>
        <source>GPU sampling was stopped</source>
        <translation>die GPU-Abfrage wurde gestoppt</translation>
    </message>
    <message>
        <source>nvidia-smi is not installed in this session</source>
        <translation>nvidia-smi ist in dieser Sitzung nicht installiert</translation>
    </message>
    <message>
        <source>nvidia-smi could not run: %1</source>
        <translation>nvidia-smi konnte nicht ausgeführt werden: %1</translation>
    </message>
    <message>
        <source>nvidia-smi is not installed in this session (exit %1)</source>
        <translation>nvidia-smi ist in dieser Sitzung nicht installiert (Exit %1)</translation>
    </message>
    <message>
        <source>nvidia-smi did not answer within %1 seconds</source>
        <translation>nvidia-smi hat nicht innerhalb von %1 Sekunden geantwortet</translation>
    </message>
</context>
<context>
    <name>sandbar::metrics::StatsCollector</name>
    <message>
        <source>The account is not connected.</source>
        <translation>Das Konto ist nicht verbunden.</translation>
    </message>
    <message numerus="yes">
        <source>The provider did not answer within %n second(s).</source>
        <translation>
            <numerusform>Der Anbieter hat nicht innerhalb von %n Sekunde geantwortet.</numerusform>
            <numerusform>Der Anbieter hat nicht innerhalb von %n Sekunden geantwortet.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sandbar::net</name>
    <message>
        <source>Invalid engine address &quot;%1&quot;: %2</source>
        <translation>Ungültige Engine-Adresse &quot;%1&quot;: %2</translation>
    </message>
    <message>
        <source>Cannot reach the engine at %1: %2</source>
        <translation>Die Engine unter %1 ist nicht erreichbar: %2</translation>
    </message>
    <message>
        <source>Cannot read the TLS %1 file %2: %3</source>
        <translation>Die TLS-%1-Datei %2 kann nicht gelesen werden: %3</translation>
    </message>
    <message>
        <source>Cannot reach the engine at %1: this build has no TLS support.</source>
        <translation>Die Engine unter %1 ist nicht erreichbar: Dieser Build unterstützt kein TLS.</translation>
    </message>
    <message>
        <source>The TLS CA file %1 holds no PEM certificate.</source>
        <translation>Die TLS-CA-Datei %1 enthält kein PEM-Zertifikat.</translation>
    </message>
    <message>
        <source>A TLS client certificate for %1 needs both a certificate and a key file.</source>
        <translation>Ein TLS-Client-Zertifikat für %1 benötigt sowohl eine Zertifikats- als auch eine Schlüsseldatei.</translation>
    </message>
    <message>
        <source>The TLS certificate file %1 holds no PEM certificate.</source>
        <translation>Die TLS-Zertifikatsdatei %1 enthält kein PEM-Zertifikat.</translation>
    </message>
    <message>
        <source>The TLS key file %1 holds no unencrypted PEM private key.</source>
        <translation>Die TLS-Schlüsseldatei %1 enthält keinen unverschlüsselten privaten PEM-Schlüssel.</translation>
    </message>
    <message>
        <source>The TLS handshake with the engine at %1 failed: %2. Check DOCKER_CERT_PATH and that the CA matches the server.</source>
        <translation>Der TLS-Handshake mit der Engine unter %1 ist fehlgeschlagen: %2. Prüfen Sie DOCKER_CERT_PATH und ob die CA zum Server passt.</translation>
    </message>
    <message>
        <source>connection refused. Is the engine listening on that port?</source>
        <translation>Verbindung abgelehnt. Lauscht die Engine auf diesem Port?</translation>
    </message>
    <message>
        <source>host %1 not found.</source>
        <translation>Host %1 nicht gefunden.</translation>
    </message>
    <message>
        <source>The connection to the engine at %1 timed out.</source>
        <translation>Zeitüberschreitung bei der Verbindung zur Engine unter %1.</translation>
    </message>
    <message>
        <source>Permission denied connecting to %1: %2</source>
        <translation>Zugriff verweigert beim Verbinden mit %1: %2</translation>
    </message>
    <message>
        <source>Permission denied on %1: add your user to the docker group or use rootless Docker</source>
        <translation>Zugriff verweigert auf %1: Fügen Sie Ihren Benutzer zur Gruppe docker hinzu oder verwenden Sie rootless Docker</translation>
    </message>
    <message>
        <source>no such socket. Is the engine (the Docker daemon, the Podman service) running?</source>
        <translation>kein solcher Socket. Läuft die Engine (der Docker-Daemon, der Podman-Dienst)?</translation>
    </message>
    <message>
        <source>connection refused (a stale socket file?). Is the engine (the Docker daemon, the Podman service) running?</source>
        <translation>Verbindung abgelehnt (eine veraltete Socket-Datei?). Läuft die Engine (der Docker-Daemon, der Podman-Dienst)?</translation>
    </message>
    <message>
        <source>Invalid SSH address &quot;%1&quot;: %2</source>
        <translation>Ungültige SSH-Adresse &quot;%1&quot;: %2</translation>
    </message>
</context>
<context>
    <name>sandbar::net::AskpassServer</name>
    <message>
        <source>Cannot listen on %1: %2</source>
        <translation>Auf %1 kann nicht gelauscht werden: %2</translation>
    </message>
</context>
<context>
    <name>sandbar::net::Endpoint</name>
    <message>
        <source>the address is empty</source>
        <translation>die Adresse ist leer</translation>
    </message>
    <message>
        <source>expected a scheme such as unix://, npipe://, tcp:// or https://</source>
        <translation>Schema wie unix://, npipe://, tcp:// oder https:// erwartet</translation>
    </message>
    <message>
        <source>the socket path is missing</source>
        <translation>der Socket-Pfad fehlt</translation>
    </message>
    <message>
        <source>only local pipes of the form npipe:////./pipe/&lt;name&gt; are supported</source>
        <translation>nur lokale Pipes der Form npipe:////./pipe/&lt;name&gt; werden unterstützt</translation>
    </message>
    <message>
        <source>unsupported scheme &quot;%1&quot;</source>
        <translation>nicht unterstütztes Schema &quot;%1&quot;</translation>
    </message>
    <message>
        <source>expected host:port</source>
        <translation>host:port erwartet</translation>
    </message>
    <message>
        <source>a path after host:port is not supported</source>
        <translation>ein Pfad nach host:port wird nicht unterstützt</translation>
    </message>
    <message>
        <source>user names, queries and fragments are not supported</source>
        <translation>Benutzernamen, Abfragen und Fragmente werden nicht unterstützt</translation>
    </message>
    <message>
        <source>invalid port</source>
        <translation>ungültiger Port</translation>
    </message>
    <message>
        <source>Engine address &quot;%1&quot; is reached through SSH, not as a socket: give it as a Docker or Podman account&apos;s endpoint</source>
        <translation>Die Engine-Adresse &quot;%1&quot; wird über SSH erreicht, nicht als Socket: Geben Sie sie als Endpunkt eines Docker- oder Podman-Kontos an</translation>
    </message>
</context>
<context>
    <name>sandbar::net::HttpClient</name>
    <message>
        <source>The reply from %1 is larger than %2 bytes.</source>
        <translation>Die Antwort von %1 ist größer als %2 Bytes.</translation>
    </message>
</context>
<context>
    <name>sandbar::net::HttpExchange</name>
    <message>
        <source>Refusing to send a request to %1 whose method, path or headers contain line breaks or spaces: %2</source>
        <translation>Anfrage an %1 wird nicht gesendet, da Methode, Pfad oder Header Zeilenumbrüche oder Leerzeichen enthalten: %2</translation>
    </message>
    <message>
        <source>The request body for %1 cannot be read: the device is not open.</source>
        <translation>Der Anfragetext für %1 kann nicht gelesen werden: Das Gerät ist nicht geöffnet.</translation>
    </message>
    <message>
        <source>The request body for %1 was deleted while it was being sent.</source>
        <translation>Der Anfragetext für %1 wurde während des Sendens gelöscht.</translation>
    </message>
    <message>
        <source>The request body for %1 ended after %2 of %3 bytes.</source>
        <translation>Der Anfragetext für %1 endete nach %2 von %3 Bytes.</translation>
    </message>
    <message>
        <source>Malformed reply from %1: %2</source>
        <translation>Fehlerhafte Antwort von %1: %2</translation>
    </message>
    <message>
        <source>Cannot reach the engine at %1: it closed the connection during the TLS handshake. Does it want a client certificate (DOCKER_CERT_PATH)?</source>
        <translation>Die Engine unter %1 ist nicht erreichbar: Sie hat die Verbindung während des TLS-Handshakes geschlossen. Erwartet sie ein Client-Zertifikat (DOCKER_CERT_PATH)?</translation>
    </message>
    <message>
        <source>Cannot reach the engine at %1: the connection closed while connecting.</source>
        <translation>Die Engine unter %1 ist nicht erreichbar: Die Verbindung wurde während des Verbindungsaufbaus geschlossen.</translation>
    </message>
    <message>
        <source>The engine at %1 dropped the connection: %2</source>
        <translation>Die Engine unter %1 hat die Verbindung abgebrochen: %2</translation>
    </message>
    <message>
        <source>Timed out after %1 ms connecting to the engine at %2.</source>
        <translation>Zeitüberschreitung nach %1 ms beim Verbinden mit der Engine unter %2.</translation>
    </message>
    <message>
        <source>The engine at %1 did not answer %2 %3 within %4 ms.</source>
        <translation>Die Engine unter %1 hat auf %2 %3 nicht innerhalb von %4 ms geantwortet.</translation>
    </message>
    <message>
        <source>The engine at %1 sent nothing for %2 ms.</source>
        <translation>Die Engine unter %1 hat %2 ms lang nichts gesendet.</translation>
    </message>
    <message>
        <source>The request to %1 was cancelled.</source>
        <translation>Die Anfrage an %1 wurde abgebrochen.</translation>
    </message>
</context>
<context>
    <name>sandbar::net::SshLink</name>
    <message>
        <source>There is no runtime folder for SSH&apos;s sockets.</source>
        <translation>Es gibt keinen Laufzeitordner für die Sockets von SSH.</translation>
    </message>
    <message>
        <source>Cannot make the private folder %1 for SSH&apos;s sockets.</source>
        <translation>Der private Ordner %1 für die Sockets von SSH kann nicht angelegt werden.</translation>
    </message>
    <message>
        <source>The host key of %1 has changed: refused, nothing was sent. If the host was reinstalled, remove its old key from known_hosts and trust the new one.</source>
        <translation>Der Host-Schlüssel von %1 hat sich geändert: abgelehnt, nichts wurde gesendet. Wenn der Host neu installiert wurde, entfernen Sie seinen alten Schlüssel aus known_hosts und vertrauen Sie dem neuen.</translation>
    </message>
    <message>
        <source>The host key of %1 is not known: refused, nothing was sent. Check its fingerprint and trust it first.</source>
        <translation>Der Host-Schlüssel von %1 ist nicht bekannt: abgelehnt, nichts wurde gesendet. Prüfen Sie seinen Fingerabdruck und vertrauen Sie ihm zuerst.</translation>
    </message>
    <message>
        <source>%1 refused the login (%2). Load the key into ssh-agent or name it with --identity.</source>
        <translation>%1 hat die Anmeldung abgelehnt (%2). Laden Sie den Schlüssel in ssh-agent oder geben Sie ihn mit --identity an.</translation>
    </message>
    <message>
        <source>ssh to %1 ended with code %2.</source>
        <translation>ssh zu %1 endete mit Code %2.</translation>
    </message>
    <message>
        <source>ssh to %1: %2</source>
        <translation>ssh zu %1: %2</translation>
    </message>
    <message>
        <source>Cannot write in %1.</source>
        <translation>In %1 kann nicht geschrieben werden.</translation>
    </message>
    <message>
        <source>Cannot run ssh (%1); install the OpenSSH client.</source>
        <translation>ssh kann nicht ausgeführt werden (%1); installieren Sie den OpenSSH-Client.</translation>
    </message>
    <message>
        <source>ssh to %1 did not finish within %2 s.</source>
        <translation>ssh zu %1 wurde nicht innerhalb von %2 s fertig.</translation>
    </message>
    <message>
        <source>Cannot replace the old socket %1.</source>
        <translation>Der alte Socket %1 kann nicht ersetzt werden.</translation>
    </message>
    <message>
        <source>The ssh configuration for %1 names no known_hosts file to trust its key in.</source>
        <translation>Die ssh-Konfiguration für %1 nennt keine known_hosts-Datei, in der sein Schlüssel vertraut werden kann.</translation>
    </message>
    <message>
        <source>%1 now offers the key %2, not the %3 you accepted: nothing was trusted.</source>
        <translation>%1 bietet jetzt den Schlüssel %2 an, nicht den bestätigten %3: nichts wurde vertraut.</translation>
    </message>
    <message>
        <source>Cannot make the folder %1.</source>
        <translation>Der Ordner %1 kann nicht angelegt werden.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
</context>
<context>
    <name>sandbar::net::SshStdioBridge</name>
    <message>
        <source>Cannot listen on %1: %2</source>
        <translation>Auf %1 kann nicht gelauscht werden: %2</translation>
    </message>
</context>
<context>
    <name>sandbar::net::SshTarget</name>
    <message>
        <source>expected ssh://[user@]host[:port][/socket-path]</source>
        <translation>ssh://[benutzer@]host[:port][/socket-pfad] erwartet</translation>
    </message>
    <message>
        <source>the host is missing</source>
        <translation>der Host fehlt</translation>
    </message>
    <message>
        <source>passwords are not taken in the address; use a key (ssh-agent or --identity)</source>
        <translation>Passwörter werden in der Adresse nicht angenommen; verwenden Sie einen Schlüssel (ssh-agent oder --identity)</translation>
    </message>
    <message>
        <source>queries and fragments are not supported</source>
        <translation>Abfragen und Fragmente werden nicht unterstützt</translation>
    </message>
    <message>
        <source>the host &quot;%1&quot; is not a host name</source>
        <translation>der Host &quot;%1&quot; ist kein Hostname</translation>
    </message>
    <message>
        <source>the user &quot;%1&quot; is not a user name</source>
        <translation>der Benutzer &quot;%1&quot; ist kein Benutzername</translation>
    </message>
    <message>
        <source>invalid port</source>
        <translation>ungültiger Port</translation>
    </message>
</context>
<context>
    <name>sandbar::net::connect</name>
    <message>
        <source>The service sent a malformed stream (unknown envelope flags 0x%1).</source>
        <translation>Der Dienst hat einen fehlerhaften Datenstrom gesendet (unbekannte Umschlag-Flags 0x%1).</translation>
    </message>
    <message>
        <source>The service sent a compressed message, which Sandbar did not ask for.</source>
        <translation>Der Dienst hat eine komprimierte Nachricht gesendet, die Sandbar nicht angefordert hat.</translation>
    </message>
    <message>
        <source>The service sent a malformed stream (a message of %1 bytes).</source>
        <translation>Der Dienst hat einen fehlerhaften Datenstrom gesendet (eine Nachricht mit %1 Bytes).</translation>
    </message>
    <message>
        <source>The stream was cut off in the middle of a message (%1 bytes left over).</source>
        <translation>Der Datenstrom wurde mitten in einer Nachricht abgebrochen (%1 Bytes übrig).</translation>
    </message>
    <message>
        <source>The service ended the stream with a malformed message: %1</source>
        <translation>Der Dienst hat den Datenstrom mit einer fehlerhaften Nachricht beendet: %1</translation>
    </message>
    <message>
        <source>The service ended the stream with a malformed error.</source>
        <translation>Der Dienst hat den Datenstrom mit einem fehlerhaften Fehler beendet.</translation>
    </message>
    <message>
        <source>The service ended the stream with an error.</source>
        <translation>Der Dienst hat den Datenstrom mit einem Fehler beendet.</translation>
    </message>
</context>
<context>
    <name>sandbar::net::grpc</name>
    <message>
        <source>the service sent a malformed status &apos;%1&apos;</source>
        <translation>der Dienst hat einen fehlerhaften Status „%1“ gesendet</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 ist fehlgeschlagen: %2</translation>
    </message>
</context>
<context>
    <name>sandbar::sprites</name>
    <message>
        <source>A Sprites token (sprites.dev, Account, Tokens); kept in the system keychain</source>
        <translation>Ein Sprites-Token (sprites.dev, Account, Tokens); liegt im Schlüsselbund des Systems</translation>
    </message>
    <message>
        <source>The Sprites API</source>
        <translation>Die Sprites-API</translation>
    </message>
    <message>
        <source>Fly.io Sprites</source>
        <translation>Fly.io Sprites</translation>
    </message>
    <message>
        <source>Persistent Fly.io VMs that sleep when nothing runs in them: compute is billed only while a terminal or command is active, storage always.</source>
        <translation>Dauerhafte Fly.io-VMs, die schlafen, wenn nichts in ihnen läuft: Rechenzeit wird nur berechnet, solange ein Terminal oder Befehl aktiv ist, Speicherplatz immer.</translation>
    </message>
    <message>
        <source>Organisation</source>
        <translation>Organisation</translation>
    </message>
    <message>
        <source>The Fly.io organisation the token belongs to (for your own reference; the token chooses it)</source>
        <translation>Die Fly.io-Organisation, zu der das Token gehört (zur eigenen Übersicht; das Token bestimmt sie)</translation>
    </message>
    <message>
        <source>vCPUs</source>
        <translation>vCPUs</translation>
    </message>
    <message>
        <source>Virtual CPUs while it runs; empty: Sprites&apos; default</source>
        <translation>Virtuelle CPUs, solange er läuft; leer: Vorgabe von Sprites</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Arbeitsspeicher</translation>
    </message>
    <message>
        <source>Region</source>
        <translation>Region</translation>
    </message>
    <message>
        <source>A Fly.io region (ord, fra, …); empty: the nearest</source>
        <translation>Eine Fly.io-Region (ord, fra, …); leer: die nächstgelegene</translation>
    </message>
    <message>
        <source>Storage (GB)</source>
        <translation>Speicherplatz (GB)</translation>
    </message>
    <message>
        <source>The sprite&apos;s disk, kept while it sleeps and billed as storage; empty: Sprites&apos; default</source>
        <translation>Die Festplatte des Sprites, bleibt im Schlaf erhalten und wird als Speicherplatz berechnet; leer: Vorgabe von Sprites</translation>
    </message>
    <message>
        <source>Public URL</source>
        <translation>Öffentliche URL</translation>
    </message>
    <message>
        <source>Anyone may open the sprite&apos;s URL (off: only with the organisation&apos;s token)</source>
        <translation>Jeder darf die URL des Sprites öffnen (aus: nur mit dem Token der Organisation)</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>Umgebung</translation>
    </message>
    <message>
        <source>KEY=VALUE, one a line</source>
        <translation>SCHLÜSSEL=WERT, einer pro Zeile</translation>
    </message>
    <message>
        <source>Internet access</source>
        <translation>Internetzugang</translation>
    </message>
    <message>
        <source>Let the sprite reach the internet (off: a network policy that denies every domain)</source>
        <translation>Den Sprite ins Internet lassen (aus: eine Netzwerkrichtlinie, die jede Domain sperrt)</translation>
    </message>
    <message>
        <source>Time limit</source>
        <translation>Zeitlimit</translation>
    </message>
    <message>
        <source>A sprite never ends by itself: after this long Sandbar, while it runs, ends what runs in it so that it sleeps; its files stay. Empty: no limit</source>
        <translation>Ein Sprite endet nie von selbst: nach dieser Zeit beendet Sandbar, solange es läuft, was im Sprite läuft, damit er schläft; seine Dateien bleiben. Leer: kein Limit</translation>
    </message>
    <message>
        <source>asleep (%1)</source>
        <translation>schläft (%1)</translation>
    </message>
    <message>
        <source>URL (public)</source>
        <translation>URL (öffentlich)</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>sprite</source>
        <translation>Sprite</translation>
    </message>
    <message>
        <source>it has no name</source>
        <translation>er hat keinen Namen</translation>
    </message>
    <message>
        <source>sprite list</source>
        <translation>Sprite-Liste</translation>
    </message>
    <message>
        <source>it has no sprites array</source>
        <translation>ihr fehlt das Feld sprites</translation>
    </message>
    <message>
        <source>session list</source>
        <translation>Sitzungsliste</translation>
    </message>
    <message>
        <source>it has no sessions array</source>
        <translation>ihr fehlt das Feld sessions</translation>
    </message>
    <message>
        <source>file list</source>
        <translation>Dateiliste</translation>
    </message>
    <message>
        <source>it has no entries array</source>
        <translation>ihr fehlt das Feld entries</translation>
    </message>
    <message>
        <source>checkpoint list</source>
        <translation>Checkpoint-Liste</translation>
    </message>
    <message>
        <source>it is not a list</source>
        <translation>sie ist keine Liste</translation>
    </message>
    <message>
        <source>progress line</source>
        <translation>Fortschrittszeile</translation>
    </message>
    <message>
        <source>it is not a JSON object</source>
        <translation>sie ist kein JSON-Objekt</translation>
    </message>
    <message>
        <source>the service gave no reason</source>
        <translation>der Dienst nannte keinen Grund</translation>
    </message>
    <message>
        <source>Memory while it runs, also its limit; empty: Sprites&apos; default</source>
        <translation>Arbeitsspeicher, solange er läuft, zugleich sein Limit; leer: Vorgabe von Sprites</translation>
    </message>
</context>
<context>
    <name>sandbar::sprites::SpritesExecJob</name>
    <message>
        <source>The account was closed</source>
        <translation>Das Konto wurde geschlossen</translation>
    </message>
    <message>
        <source>No command was given</source>
        <translation>Es wurde kein Befehl angegeben</translation>
    </message>
    <message>
        <source>Sprites run commands as their own user only</source>
        <translation>Sprites führen Befehle nur als ihr eigener Benutzer aus</translation>
    </message>
    <message>
        <source>the command</source>
        <translation>den Befehl</translation>
    </message>
    <message>
        <source>The sprite did not start the command in time</source>
        <translation>Der Sprite hat den Befehl nicht rechtzeitig gestartet</translation>
    </message>
    <message>
        <source>The sprite&apos;s connection ended before the command did (%1%2)</source>
        <translation>Die Verbindung zum Sprite endete vor dem Befehl (%1%2)</translation>
    </message>
    <message>
        <source>The command was cancelled</source>
        <translation>Der Befehl wurde abgebrochen</translation>
    </message>
</context>
<context>
    <name>sandbar::sprites::SpritesProvider</name>
    <message>
        <source>%1 (8080 is listening)</source>
        <translation>%1 (8080 lauscht)</translation>
    </message>
    <message>
        <source>The time limit, CPUs and memory must be positive</source>
        <translation>Zeitlimit, CPUs und Arbeitsspeicher müssen positiv sein</translation>
    </message>
    <message>
        <source>Sprites have no GPUs</source>
        <translation>Sprites haben keine GPUs</translation>
    </message>
    <message>
        <source>Creating the sprite…</source>
        <translation>Der Sprite wird erstellt …</translation>
    </message>
    <message>
        <source>%1, so the sprite was deleted again: %2</source>
        <translation>%1, daher wurde der Sprite wieder gelöscht: %2</translation>
    </message>
    <message>
        <source>Closing the sprite&apos;s network…</source>
        <translation>Das Netzwerk des Sprites wird geschlossen …</translation>
    </message>
    <message>
        <source>The sprite&apos;s network could not be closed</source>
        <translation>Das Netzwerk des Sprites ließ sich nicht schließen</translation>
    </message>
    <message>
        <source>The sprite&apos;s memory limit could not be set</source>
        <translation>Das Speicherlimit des Sprites ließ sich nicht setzen</translation>
    </message>
    <message>
        <source>The sprite&apos;s memory limit could not be read</source>
        <translation>Das Speicherlimit des Sprites ließ sich nicht lesen</translation>
    </message>
    <message>
        <source>Ending the sprite&apos;s sessions failed: %1</source>
        <translation>Das Beenden der Sitzungen des Sprites ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Killing the sprite&apos;s sessions failed: %1</source>
        <translation>Das Abbrechen der Sitzungen des Sprites ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Deleting failed: %1</source>
        <translation>Löschen fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>The time limit cannot be negative</source>
        <translation>Das Zeitlimit darf nicht negativ sein</translation>
    </message>
    <message>
        <source>Sprites closed the terminal (%1%2)</source>
        <translation>Sprites hat das Terminal geschlossen (%1%2)</translation>
    </message>
    <message>
        <source>The account was closed</source>
        <translation>Das Konto wurde geschlossen</translation>
    </message>
    <message>
        <source>Sprites reported: %1</source>
        <translation>Sprites meldete: %1</translation>
    </message>
    <message>
        <source>Saving a checkpoint…</source>
        <translation>Ein Checkpoint wird gespeichert …</translation>
    </message>
    <message>
        <source>The checkpoint failed: %1</source>
        <translation>Der Checkpoint ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Sprites reported the checkpoint saved, yet lists none</source>
        <translation>Sprites meldete den Checkpoint als gespeichert, listet aber keinen</translation>
    </message>
    <message>
        <source>Restoring checkpoint %1…</source>
        <translation>Checkpoint %1 wird wiederhergestellt …</translation>
    </message>
    <message>
        <source>Restoring failed: %1</source>
        <translation>Wiederherstellen fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>&apos;%1&apos; cannot be changed on a sprite that exists</source>
        <translation>&apos;%1&apos; lässt sich an einem bestehenden Sprite nicht ändern</translation>
    </message>
    <message>
        <source>Changing the settings failed: %1</source>
        <translation>Die Einstellungen ließen sich nicht ändern: %1</translation>
    </message>
    <message>
        <source>&apos;%1&apos; exists already</source>
        <translation>&apos;%1&apos; gibt es schon</translation>
    </message>
    <message>
        <source>Port %1 (forwarded to this computer)</source>
        <translation>Port %1 (auf diesen Rechner weitergeleitet)</translation>
    </message>
    <message>
        <source>%1 is one of Sandbar&apos;s labels</source>
        <translation>%1 ist eines von Sandbars Labels</translation>
    </message>
</context>
<context>
    <name>sandbar::ui</name>
    <message>
        <source>Queued</source>
        <translation>In Warteschlange</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Fertig</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation>Übersprungen</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::AccountBadges</name>
    <message>
        <source>%1 · not reachable: %2</source>
        <translation>%1 · nicht erreichbar: %2</translation>
    </message>
    <message>
        <source>%1 · listed in %2 ms</source>
        <translation>%1 · in %2 ms aufgelistet</translation>
    </message>
    <message numerus="yes">
        <source>%n session(s)</source>
        <translation>
            <numerusform>%n Sitzung</numerusform>
            <numerusform>%n Sitzungen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n running</source>
        <translation>
            <numerusform>%n läuft</numerusform>
            <numerusform>%n laufen</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 · connecting…</source>
        <translation>%1 · Verbindung wird hergestellt…</translation>
    </message>
    <message>
        <source>%1 · not asked yet</source>
        <translation>%1 · noch nicht abgefragt</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::AccountDialog</name>
    <message>
        <source>Add account</source>
        <translation>Konto hinzufügen</translation>
    </message>
    <message>
        <source>Edit account %1</source>
        <translation>Konto %1 bearbeiten</translation>
    </message>
    <message>
        <source>An account cannot be renamed: its secrets are filed under its name in the keychain</source>
        <translation>Ein Konto kann nicht umbenannt werden: Seine Geheimnisse sind unter seinem Namen im Schlüsselbund abgelegt</translation>
    </message>
    <message>
        <source>Found on this computer</source>
        <translation>Auf diesem Computer gefunden</translation>
    </message>
    <message>
        <source>Looking for engines on this computer…</source>
        <translation>Suche nach Engines auf diesem Computer…</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>Account name</source>
        <translation>Kontoname</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>Verbindung testen</translation>
    </message>
    <message>
        <source>Testing the connection</source>
        <translation>Verbindung wird getestet</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>%1 is required</source>
        <translation>%1 ist erforderlich</translation>
    </message>
    <message>
        <source>Use %1</source>
        <translation>%1 verwenden</translation>
    </message>
    <message>
        <source>Choose a provider</source>
        <translation>Anbieter auswählen</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>Verbindung wird hergestellt…</translation>
    </message>
    <message>
        <source>Could not connect: %1</source>
        <translation>Verbindung fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Connected — %1 %2, %3 ms</source>
        <translation>Verbunden — %1 %2, %3 ms</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::AgentCallsModel</name>
    <message>
        <source>unnamed client</source>
        <translation>unbenannter Client</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>client name, version</comment>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>OK</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Client left before it ended</source>
        <translation>Client hat sich vor dem Ende getrennt</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>Läuft…</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1 over %2, process %3</source>
        <translation>%1 über %2, Prozess %3</translation>
    </message>
    <message>
        <source>%1 over %2</source>
        <translation>%1 über %2</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Client</source>
        <translation>Client</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Werkzeug</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>Argumente</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::AgentPolicyDialog</name>
    <message>
        <source>Agent policy</source>
        <translation>Agentenrichtlinie</translation>
    </message>
    <message>
        <source>What agents may do through Sandbar&apos;s MCP server (&lt;code&gt;sandbarctl mcp&lt;/code&gt; and the window&apos;s endpoint). Saved in &lt;code&gt;%1&lt;/code&gt;; every call reads it again.</source>
        <translation>Was Agenten über den MCP-Server von Sandbar tun dürfen (&lt;code&gt;sandbarctl mcp&lt;/code&gt; und der Endpunkt des Fensters). Gespeichert in &lt;code&gt;%1&lt;/code&gt;; jeder Aufruf liest sie neu ein.</translation>
    </message>
    <message>
        <source>Accounts agents may use</source>
        <translation>Konten, die Agenten nutzen dürfen</translation>
    </message>
    <message>
        <source>Limits</source>
        <translation>Limits</translation>
    </message>
    <message>
        <source>Sessions created by agents that may exist at once; 0: agents cannot create any</source>
        <translation>Von Agenten erstellte Sitzungen, die gleichzeitig bestehen dürfen; 0: Agenten können keine erstellen</translation>
    </message>
    <message>
        <source> min</source>
        <translation> min</translation>
    </message>
    <message>
        <source>No time limit</source>
        <translation>Kein Zeitlimit</translation>
    </message>
    <message>
        <source>The time limit of a session an agent creates without asking for one</source>
        <translation>Das Zeitlimit einer Sitzung, die ein Agent erstellt, ohne eines anzufordern</translation>
    </message>
    <message>
        <source>No maximum</source>
        <translation>Kein Maximum</translation>
    </message>
    <message>
        <source>The longest time limit an agent may ask for; with no maximum, also none at all</source>
        <translation>Das längste Zeitlimit, das ein Agent anfordern darf; ohne Maximum auch gar keines</translation>
    </message>
    <message>
        <source> per hour</source>
        <translation> pro Stunde</translation>
    </message>
    <message>
        <source>No limit</source>
        <translation>Kein Limit</translation>
    </message>
    <message>
        <source>The estimated price of the agents&apos; running sessions together, the new one included</source>
        <translation>Der geschätzte Preis aller laufenden Sitzungen der Agenten zusammen, die neue eingeschlossen</translation>
    </message>
    <message>
        <source>Sessions at once:</source>
        <translation>Gleichzeitige Sitzungen:</translation>
    </message>
    <message>
        <source>Default time limit:</source>
        <translation>Standard-Zeitlimit:</translation>
    </message>
    <message>
        <source>Longest time limit:</source>
        <translation>Längstes Zeitlimit:</translation>
    </message>
    <message>
        <source>Running cost of agent sessions:</source>
        <translation>Laufende Kosten der Agentensitzungen:</translation>
    </message>
    <message>
        <source>Agents may ask for</source>
        <translation>Agenten dürfen anfordern</translation>
    </message>
    <message>
        <source>Network access in their sessions</source>
        <translation>Netzwerkzugriff in ihren Sitzungen</translation>
    </message>
    <message>
        <source>Off: a create with network on is refused</source>
        <translation>Aus: Ein Erstellen mit eingeschaltetem Netzwerk wird abgelehnt</translation>
    </message>
    <message>
        <source>Folders of this computer (mounts, uploads)</source>
        <translation>Ordner dieses Computers (Einhängepunkte, Hochladen)</translation>
    </message>
    <message>
        <source>Off: mounts and uploads from this computer are refused</source>
        <translation>Aus: Einhängen und Hochladen von diesem Computer werden abgelehnt</translation>
    </message>
    <message>
        <source>Ask me in this window before</source>
        <translation>In diesem Fenster vorher nachfragen bei</translation>
    </message>
    <message>
        <source>Creating a session on an account that bills</source>
        <translation>Erstellen einer Sitzung in einem kostenpflichtigen Konto</translation>
    </message>
    <message>
        <source>Cloud providers; a Local, Docker or Podman account never bills</source>
        <translation>Cloud-Anbieter; ein lokales, Docker- oder Podman-Konto verursacht nie Kosten</translation>
    </message>
    <message>
        <source>Creating a session with network access</source>
        <translation>Erstellen einer Sitzung mit Netzwerkzugriff</translation>
    </message>
    <message>
        <source>Using a folder of this computer</source>
        <translation>Verwenden eines Ordners dieses Computers</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>Werkzeuge</translation>
    </message>
    <message>
        <source>Tools agents see</source>
        <translation>Werkzeuge, die Agenten sehen</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Werkzeug</translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation>Aktiviert</translation>
    </message>
    <message>
        <source>Ask every call</source>
        <translation>Bei jedem Aufruf fragen</translation>
    </message>
    <message>
        <source>Remove an agent&apos;s sessions when it disconnects</source>
        <translation>Sitzungen eines Agenten entfernen, wenn er die Verbindung trennt</translation>
    </message>
    <message>
        <source>So that an agent&apos;s leftovers do not run up a bill; their files inside the sandbox are deleted</source>
        <translation>Damit Überbleibsel eines Agenten keine Kosten verursachen; ihre Dateien in der Sandbox werden gelöscht</translation>
    </message>
    <message>
        <source>&lt;b&gt;The agent policy could not be read.&lt;/b&gt; %1&lt;br&gt;The form shows the defaults. The file is left as it is unless you press Save, which replaces it with what the form shows.</source>
        <translation>&lt;b&gt;Die Agentenrichtlinie konnte nicht gelesen werden.&lt;/b&gt; %1&lt;br&gt;Das Formular zeigt die Standardwerte. Die Datei bleibt unverändert, es sei denn, Sie klicken auf Speichern; dann wird sie durch den Inhalt des Formulars ersetzt.</translation>
    </message>
    <message>
        <source>All accounts, also ones added later</source>
        <translation>Alle Konten, auch später hinzugefügte</translation>
    </message>
    <message>
        <source>%1 (not configured here)</source>
        <translation>%1 (hier nicht eingerichtet)</translation>
    </message>
    <message>
        <source>Not a tool of this version; kept as the file says</source>
        <translation>Kein Werkzeug dieser Version; bleibt so, wie es in der Datei steht</translation>
    </message>
    <message>
        <source>%1 enabled</source>
        <translation>%1 aktiviert</translation>
    </message>
    <message>
        <source>Ask before every %1 call</source>
        <translation>Vor jedem %1-Aufruf fragen</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>Nicht gespeichert: %1</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::AgentsView</name>
    <message>
        <source>Denied in the Sandbar window.</source>
        <translation>Im Sandbar-Fenster abgelehnt.</translation>
    </message>
    <message>
        <source>Denied in the Sandbar window: %1</source>
        <translation>Im Sandbar-Fenster abgelehnt: %1</translation>
    </message>
    <message>
        <source>Agents</source>
        <translation>Agenten</translation>
    </message>
    <message>
        <source>Forget “always”</source>
        <translation>„Immer“ vergessen</translation>
    </message>
    <message>
        <source>Ask again for every call that was approved with “Always for this client”</source>
        <translation>Wieder bei jedem Aufruf fragen, der mit „Immer für diesen Client“ freigegeben wurde</translation>
    </message>
    <message>
        <source>&amp;Policy…</source>
        <translation>&amp;Richtlinie…</translation>
    </message>
    <message>
        <source>Which accounts, limits and tools agents may use, and which calls need your approval</source>
        <translation>Welche Konten, Limits und Werkzeuge Agenten nutzen dürfen und welche Aufrufe Ihre Freigabe brauchen</translation>
    </message>
    <message>
        <source>No calls are waiting for your approval.</source>
        <translation>Keine Aufrufe warten auf Ihre Freigabe.</translation>
    </message>
    <message>
        <source>Recent calls</source>
        <translation>Letzte Aufrufe</translation>
    </message>
    <message>
        <source>Recent agent calls</source>
        <translation>Letzte Agentenaufrufe</translation>
    </message>
    <message>
        <source>Listening for &lt;code&gt;sandbarctl mcp&lt;/code&gt;; no agent is connected.</source>
        <translation>Lauscht auf &lt;code&gt;sandbarctl mcp&lt;/code&gt;; kein Agent ist verbunden.</translation>
    </message>
    <message numerus="yes">
        <source>Listening for &lt;code&gt;sandbarctl mcp&lt;/code&gt;; %n connected: %1.</source>
        <translation>
            <numerusform>Lauscht auf &lt;code&gt;sandbarctl mcp&lt;/code&gt;; %n verbunden: %1.</numerusform>
            <numerusform>Lauscht auf &lt;code&gt;sandbarctl mcp&lt;/code&gt;; %n verbunden: %1.</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;Not listening for &lt;code&gt;sandbarctl mcp&lt;/code&gt;:&lt;/b&gt; %1 Its calls that need approval are denied.</source>
        <translation>&lt;b&gt;Lauscht nicht auf &lt;code&gt;sandbarctl mcp&lt;/code&gt;:&lt;/b&gt; %1 Seine Aufrufe, die eine Freigabe brauchen, werden abgelehnt.</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <comment>client → tool</comment>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>Approved without asking until Sandbar quits: %1</source>
        <translation>Ohne Nachfrage freigegeben, bis Sandbar beendet wird: %1</translation>
    </message>
    <message>
        <source>Waiting for approval</source>
        <translation>Warten auf Freigabe</translation>
    </message>
    <message>
        <source>Waiting for approval (%1)</source>
        <translation>Warten auf Freigabe (%1)</translation>
    </message>
    <message>
        <source>%1 asks to call %2</source>
        <translation>%1 möchte %2 aufrufen</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; wants to call &lt;b&gt;&lt;code&gt;%2&lt;/code&gt;&lt;/b&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; möchte &lt;b&gt;&lt;code&gt;%2&lt;/code&gt;&lt;/b&gt; aufrufen</translation>
    </message>
    <message>
        <source>%1, process %2</source>
        <translation>%1, Prozess %2</translation>
    </message>
    <message>
        <source>asked at %1</source>
        <translation>angefragt um %1</translation>
    </message>
    <message>
        <source>%1 · asked at %2</source>
        <translation>%1 · angefragt um %2</translation>
    </message>
    <message>
        <source>(no arguments)</source>
        <translation>(keine Argumente)</translation>
    </message>
    <message>
        <source>Reason for the agent, if you deny (optional)</source>
        <translation>Begründung für den Agenten, falls Sie ablehnen (optional)</translation>
    </message>
    <message>
        <source>Reason for denying</source>
        <translation>Begründung der Ablehnung</translation>
    </message>
    <message>
        <source>Approve once</source>
        <translation>Einmal freigeben</translation>
    </message>
    <message>
        <source>Let this call run; the next one asks again</source>
        <translation>Diesen Aufruf ausführen lassen; beim nächsten wird wieder gefragt</translation>
    </message>
    <message>
        <source>Always for this client</source>
        <translation>Immer für diesen Client</translation>
    </message>
    <message>
        <source>Let this call and every later %1 call from clients named “%2” run without asking, until Sandbar quits.
Any program on this computer can give itself that name: this is a convenience, not a security boundary.</source>
        <translation>Diesen und jeden späteren %1-Aufruf von Clients namens „%2“ ohne Nachfrage ausführen lassen, bis Sandbar beendet wird.
Jedes Programm auf diesem Computer kann sich diesen Namen geben: Das ist eine Bequemlichkeit, keine Sicherheitsgrenze.</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>Ablehnen</translation>
    </message>
    <message>
        <source>Refuse this call; the agent is told why (the reason, when you give one)</source>
        <translation>Diesen Aufruf ablehnen; der Agent erfährt den Grund (Ihre Begründung, falls Sie eine angeben)</translation>
    </message>
    <message>
        <source>HTTP clients holding the token</source>
        <translation>HTTP-Clients mit dem Token</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::AuditModel</name>
    <message>
        <source>showing the newest %1 of %2</source>
        <translation>die neuesten %1 von %2 werden angezeigt</translation>
    </message>
    <message>
        <source>no matching entries</source>
        <translation>keine passenden Einträge</translation>
    </message>
    <message numerus="yes">
        <source>%n entry(s)</source>
        <translation>
            <numerusform>%n Eintrag</numerusform>
            <numerusform>%n Einträge</numerusform>
        </translation>
    </message>
    <message>
        <source>ok</source>
        <translation>ok</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Account</source>
        <translation>Konto</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>Sitzung</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>Details</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::AuditView</name>
    <message>
        <source>Audit log</source>
        <translation>Audit-Protokoll</translation>
    </message>
    <message>
        <source>Search the audit log</source>
        <translation>Audit-Protokoll durchsuchen</translation>
    </message>
    <message>
        <source>Search commands, paths, errors…</source>
        <translation>Befehle, Pfade, Fehler durchsuchen…</translation>
    </message>
    <message>
        <source>Account filter</source>
        <translation>Kontofilter</translation>
    </message>
    <message>
        <source>All accounts</source>
        <translation>Alle Konten</translation>
    </message>
    <message>
        <source>Session filter</source>
        <translation>Sitzungsfilter</translation>
    </message>
    <message>
        <source>Session ID</source>
        <translation>Sitzungs-ID</translation>
    </message>
    <message>
        <source>Action filter</source>
        <translation>Aktionsfilter</translation>
    </message>
    <message>
        <source>All actions</source>
        <translation>Alle Aktionen</translation>
    </message>
    <message>
        <source>Outcome filter</source>
        <translation>Ergebnisfilter</translation>
    </message>
    <message>
        <source>All outcomes</source>
        <translation>Alle Ergebnisse</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>OK</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Time range</source>
        <translation>Zeitraum</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>Letzte Stunde</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>Letzte 24 Stunden</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>Letzte 7 Tage</translation>
    </message>
    <message>
        <source>All time</source>
        <translation>Gesamter Zeitraum</translation>
    </message>
    <message>
        <source>Custom…</source>
        <translation>Benutzerdefiniert…</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Von</translation>
    </message>
    <message>
        <source>Until</source>
        <translation>Bis</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>CSV exportieren…</translation>
    </message>
    <message>
        <source>Export the rows shown as CSV</source>
        <translation>Angezeigte Zeilen als CSV exportieren</translation>
    </message>
    <message>
        <source>Audit entries</source>
        <translation>Audit-Einträge</translation>
    </message>
    <message>
        <source>Selected entry</source>
        <translation>Ausgewählter Eintrag</translation>
    </message>
    <message>
        <source>Select an entry to see all of it.</source>
        <translation>Wählen Sie einen Eintrag aus, um ihn vollständig zu sehen.</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Wird geladen…</translation>
    </message>
    <message>
        <source>Export audit log</source>
        <translation>Audit-Protokoll exportieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>CSV-Dateien (*.csv);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>could not write the file</source>
        <translation>Datei konnte nicht geschrieben werden</translation>
    </message>
    <message numerus="yes">
        <source>exported %n rows to %1</source>
        <translation>
            <numerusform>%n Zeile nach %1 exportiert</numerusform>
            <numerusform>%n Zeilen nach %1 exportiert</numerusform>
        </translation>
    </message>
    <message>
        <source>export failed: %1</source>
        <translation>Export fehlgeschlagen: %1</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::BulkActions</name>
    <message>
        <source>Stop</source>
        <translation>Stoppen</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausieren</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Kill</source>
        <translation>Beenden erzwingen</translation>
    </message>
    <message>
        <source>it is %1</source>
        <translation>sie ist %1</translation>
    </message>
    <message>
        <source>%1 cannot kill sessions</source>
        <translation>%1 kann Sitzungen nicht zwangsweise beenden</translation>
    </message>
    <message>
        <source>it is %1, not running</source>
        <translation>sie ist %1, nicht laufend</translation>
    </message>
    <message>
        <source>%1 cannot pause sessions</source>
        <translation>%1 kann Sitzungen nicht pausieren</translation>
    </message>
    <message>
        <source>it is %1, not paused</source>
        <translation>sie ist %1, nicht pausiert</translation>
    </message>
    <message>
        <source>Skipped: %1</source>
        <translation>Übersprungen: %1</translation>
    </message>
    <message>
        <source>Skipped:</source>
        <translation>Übersprungen:</translation>
    </message>
    <message>
        <source>%1 sessions</source>
        <translation>%1 Sitzungen</translation>
    </message>
    <message>
        <source>The account %1 is not connected</source>
        <translation>Das Konto %1 ist nicht verbunden</translation>
    </message>
    <message>
        <source>Remove %1? Its files inside the sandbox are deleted.</source>
        <translation>%1 entfernen? Die Dateien in der Sandbox werden gelöscht.</translation>
    </message>
    <message>
        <source>Remove %1 sessions? Their files inside the sandboxes are deleted.</source>
        <translation>%1 Sitzungen entfernen? Ihre Dateien in den Sandboxen werden gelöscht.</translation>
    </message>
    <message>
        <source>Kill %1? Its processes get no chance to save their work.</source>
        <translation>Beenden von %1 erzwingen? Die Prozesse haben keine Gelegenheit, ihre Arbeit zu speichern.</translation>
    </message>
    <message>
        <source>Kill %1 sessions? Their processes get no chance to save their work.</source>
        <translation>Beenden von %1 Sitzungen erzwingen? Ihre Prozesse haben keine Gelegenheit, ihre Arbeit zu speichern.</translation>
    </message>
    <message>
        <source>Stop %1?</source>
        <translation>%1 stoppen?</translation>
    </message>
    <message>
        <source>Stop %1 sessions?</source>
        <translation>%1 Sitzungen stoppen?</translation>
    </message>
    <message>
        <source>and %1 more</source>
        <translation>und %1 weitere</translation>
    </message>
    <message>
        <source>%1: 1 session done</source>
        <translation>%1: 1 Sitzung erledigt</translation>
    </message>
    <message>
        <source>%1: %2 sessions done</source>
        <translation>%1: %2 Sitzungen erledigt</translation>
    </message>
    <message>
        <source>Archive</source>
        <translation>Archivieren</translation>
    </message>
    <message>
        <source>%1 cannot archive sessions</source>
        <translation>%1 kann Sitzungen nicht archivieren</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::CardWriter</name>
    <message>
        <source>undated</source>
        <translation>undatiert</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source> (%1 included a month)</source>
        <translation> (%1 pro Monat inklusive)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>Quellen</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::ColdStartScatter</name>
    <message>
        <source>Cold start against estimated cost a month</source>
        <translation>Kaltstart im Vergleich zu geschätzten monatlichen Kosten</translation>
    </message>
    <message>
        <source>Cold start, ms (log scale)</source>
        <translation>Kaltstart, ms (logarithmisch)</translation>
    </message>
    <message>
        <source>Cold start, ms</source>
        <translation>Kaltstart, ms</translation>
    </message>
    <message>
        <source>USD a month</source>
        <translation>USD pro Monat</translation>
    </message>
    <message>
        <source>%1 (excluded: %2)</source>
        <translation>%1 (ausgeschlossen: %2)</translation>
    </message>
    <message>
        <source>%1 (cold start unknown)</source>
        <translation>%1 (Kaltstart unbekannt)</translation>
    </message>
    <message>
        <source>%1 (self-hosted)</source>
        <translation>%1 (selbst gehostet)</translation>
    </message>
    <message>
        <source>Not plotted: %1</source>
        <translation>Nicht dargestellt: %1</translation>
    </message>
    <message>
        <source>%1: %2 ms, %3 a month</source>
        <translation>%1: %2 ms, %3 pro Monat</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::CommandsView</name>
    <message>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>Exited (%1)</source>
        <translation>Beendet (%1)</translation>
    </message>
    <message>
        <source>Ended</source>
        <translation>Beendet</translation>
    </message>
    <message>
        <source>Commands started here run on their own, also after this window closes; the provider keeps their output.</source>
        <translation>Hier gestartete Befehle laufen für sich weiter, auch nachdem dieses Fenster geschlossen ist; der Anbieter bewahrt ihre Ausgabe auf.</translation>
    </message>
    <message>
        <source>Command line, run by sh -c (for example: npm run dev)</source>
        <translation>Befehlszeile, von sh -c ausgeführt (zum Beispiel: npm run dev)</translation>
    </message>
    <message>
        <source>Command to start</source>
        <translation>Zu startender Befehl</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Starten</translation>
    </message>
    <message>
        <source>Commands</source>
        <translation>Befehle</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Anhalten</translation>
    </message>
    <message>
        <source>Ask the command to end (TERM)</source>
        <translation>Den Befehl bitten zu enden (TERM)</translation>
    </message>
    <message>
        <source>Kill</source>
        <translation>Beenden erzwingen</translation>
    </message>
    <message>
        <source>End the command at once (KILL)</source>
        <translation>Den Befehl sofort beenden (KILL)</translation>
    </message>
    <message>
        <source>Output of the selected command</source>
        <translation>Ausgabe des ausgewählten Befehls</translation>
    </message>
    <message>
        <source>The commands could not be listed: %1</source>
        <translation>Die Befehle konnten nicht aufgelistet werden: %1</translation>
    </message>
    <message>
        <source>No commands started yet.</source>
        <translation>Noch keine Befehle gestartet.</translation>
    </message>
    <message>
        <source>Starting %1…</source>
        <translation>%1 wird gestartet …</translation>
    </message>
    <message>
        <source>The command did not start: %1</source>
        <translation>Der Befehl ist nicht gestartet: %1</translation>
    </message>
    <message>
        <source>Started %1 (%2).</source>
        <translation>%1 gestartet (%2).</translation>
    </message>
    <message>
        <source>The signal was not sent: %1</source>
        <translation>Das Signal wurde nicht gesendet: %1</translation>
    </message>
    <message>
        <source>Killed %1.</source>
        <translation>%1 sofort beendet.</translation>
    </message>
    <message>
        <source>Asked %1 to stop.</source>
        <translation>%1 gebeten anzuhalten.</translation>
    </message>
    <message>
        <source>The output stopped: %1</source>
        <translation>Die Ausgabe brach ab: %1</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::CompareModel</name>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Fixed size</source>
        <translation>Feste Größe</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>Leerlauf</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>Speicherplatz</translation>
    </message>
    <message>
        <source>Creates</source>
        <translation>Erstellungen</translation>
    </message>
    <message>
        <source>Egress</source>
        <translation>Ausgehender Datenverkehr</translation>
    </message>
    <message>
        <source>Plan fee</source>
        <translation>Tarifgebühr</translation>
    </message>
    <message>
        <source>Free credit</source>
        <translation>Freiguthaben</translation>
    </message>
    <message>
        <source>Estimated cost a month of the workload above; excluded providers say why</source>
        <translation>Geschätzte monatliche Kosten für die obige Arbeitslast; bei ausgeschlossenen Anbietern steht der Grund</translation>
    </message>
    <message>
        <source>What the catalog says about self-hosting or bring-your-own-cloud</source>
        <translation>Was der Katalog über Self-Hosting oder Bring-Your-Own-Cloud sagt</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Isolation</source>
        <translation>Isolierung</translation>
    </message>
    <message>
        <source>Cold start</source>
        <translation>Kaltstart</translation>
    </message>
    <message>
        <source>Max session</source>
        <translation>Max. Sitzung</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>Self-host / BYOC</source>
        <translation>Self-Host / BYOC</translation>
    </message>
    <message>
        <source>Regions</source>
        <translation>Regionen</translation>
    </message>
    <message>
        <source>Est. monthly</source>
        <translation>Geschätzt/Monat</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>unbegrenzt</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>excluded: %1</source>
        <translation>ausgeschlossen: %1</translation>
    </message>
    <message>
        <source>%1 (self-hosted)</source>
        <translation>%1 (selbst gehostet)</translation>
    </message>
    <message>
        <source>Plan: %1</source>
        <translation>Tarif: %1</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>Hinweis: %1</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::CompareView</name>
    <message>
        <source>Workload a month</source>
        <translation>Arbeitslast pro Monat</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>Tabelle</translation>
    </message>
    <message>
        <source>Cost chart</source>
        <translation>Kostendiagramm</translation>
    </message>
    <message>
        <source>Cold start vs price</source>
        <translation>Kaltstart vs. Preis</translation>
    </message>
    <message>
        <source>Side by side</source>
        <translation>Nebeneinander</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>CSV exportieren…</translation>
    </message>
    <message>
        <source>Export PNG…</source>
        <translation>PNG exportieren…</translation>
    </message>
    <message>
        <source>Saves the current tab as an image</source>
        <translation>Speichert den aktuellen Reiter als Bild</translation>
    </message>
    <message>
        <source>Filters</source>
        <translation>Filter</translation>
    </message>
    <message>
        <source>Needs GPU</source>
        <translation>GPU erforderlich</translation>
    </message>
    <message>
        <source>Only providers whose catalog entry lists GPU types</source>
        <translation>Nur Anbieter, deren Katalogeintrag GPU-Typen aufführt</translation>
    </message>
    <message>
        <source>Self-host or BYOC</source>
        <translation>Self-Host oder BYOC</translation>
    </message>
    <message>
        <source>Runs on your own machines, or offers bring-your-own-cloud or on-premises</source>
        <translation>Läuft auf Ihren eigenen Rechnern oder bietet Bring-Your-Own-Cloud bzw. On-Premises an</translation>
    </message>
    <message>
        <source> h</source>
        <translation> h</translation>
    </message>
    <message>
        <source>any</source>
        <translation>beliebig</translation>
    </message>
    <message>
        <source>Hides providers whose longest plan allows shorter sessions, and those whose limit is not known</source>
        <translation>Blendet Anbieter aus, deren längster Tarif nur kürzere Sitzungen erlaubt, sowie jene, deren Limit unbekannt ist</translation>
    </message>
    <message>
        <source>Min. session</source>
        <translation>Min. Sitzung</translation>
    </message>
    <message>
        <source>Isolation</source>
        <translation>Isolierung</translation>
    </message>
    <message>
        <source>Region</source>
        <translation>Region</translation>
    </message>
    <message>
        <source>%1 of %2 providers match the filters; %3 of them can run this workload. Estimates use published list prices; hover a cost for its breakdown.</source>
        <translation>%1 von %2 Anbietern entsprechen den Filtern; %3 davon können diese Arbeitslast ausführen. Schätzungen beruhen auf veröffentlichten Listenpreisen; fahren Sie mit der Maus über einen Betrag, um die Aufschlüsselung zu sehen.</translation>
    </message>
    <message>
        <source>Nothing to draw</source>
        <translation>Nichts darzustellen</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>Export CSV</source>
        <translation>CSV exportieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>Export PNG</source>
        <translation>PNG exportieren</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG-Bilder (*.png)</translation>
    </message>
    <message>
        <source>Could not save %1: %2</source>
        <translation>%1 konnte nicht gespeichert werden: %2</translation>
    </message>
    <message>
        <source>Providers compared</source>
        <translation>Anbieter im Vergleich</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::ConflictDialog</name>
    <message>
        <source>Do this for all remaining conflicts</source>
        <translation>Für alle verbleibenden Konflikte übernehmen</translation>
    </message>
    <message>
        <source>Name already exists</source>
        <translation>Name existiert bereits</translation>
    </message>
    <message>
        <source>Name conflict</source>
        <translation>Namenskonflikt</translation>
    </message>
    <message>
        <source>A folder named “%1” already exists in %2. Overwrite merges the two folders.</source>
        <translation>Ein Ordner namens „%1“ existiert bereits in %2. Überschreiben führt die beiden Ordner zusammen.</translation>
    </message>
    <message>
        <source>“%1” already exists in %2 as a %3. Overwrite deletes it first.</source>
        <translation>„%1“ existiert in %2 bereits als %3. Überschreiben löscht es zuerst.</translation>
    </message>
    <message>
        <source>folder</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>file</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>A file named “%1” already exists in %2. Overwrite replaces it.</source>
        <translation>Eine Datei namens „%1“ existiert bereits in %2. Überschreiben ersetzt sie.</translation>
    </message>
    <message>
        <source>&amp;Overwrite</source>
        <translation>&amp;Überschreiben</translation>
    </message>
    <message>
        <source>&amp;Skip</source>
        <translation>Ü&amp;berspringen</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>&amp;Umbenennen</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::CostChart</name>
    <message>
        <source>Estimated cost a month, by component</source>
        <translation>Geschätzte monatliche Kosten nach Komponente</translation>
    </message>
    <message>
        <source>USD a month</source>
        <translation>USD pro Monat</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Self-hosted, no provider charges: %1.</source>
        <translation>Selbst gehostet, keine Anbieterkosten: %1.</translation>
    </message>
    <message>
        <source>Cannot run this workload: %1.</source>
        <translation>Diese Arbeitslast kann nicht ausgeführt werden: %1.</translation>
    </message>
    <message>
        <source>No provider in the current selection charges for this workload</source>
        <translation>Kein Anbieter in der aktuellen Auswahl berechnet Kosten für diese Arbeitslast</translation>
    </message>
    <message>
        <source>%1  %2</source>
        <translation>%1  %2</translation>
    </message>
    <message>
        <source>%1: %2 of %3</source>
        <translation>%1: %2 von %3</translation>
    </message>
    <message>
        <source>%1  (%2)</source>
        <translation>%1  (%2)</translation>
    </message>
    <message>
        <source>Plan: %1</source>
        <translation>Tarif: %1</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>Hinweis: %1</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::CostStatus</name>
    <message>
        <source>Sandbar</source>
        <translation>Sandbar</translation>
    </message>
    <message>
        <source>Budget: %1 at %2 %</source>
        <translation>Budget: %1 bei %2 %</translation>
    </message>
    <message>
        <source>Account %1 has spent %2 of its %3 monthly budget.</source>
        <translation>Konto %1 hat %2 seines monatlichen Budgets von %3 ausgegeben.</translation>
    </message>
    <message>
        <source>Budget reached: %1 stopped</source>
        <translation>Budget erreicht: %1 gestoppt</translation>
    </message>
    <message numerus="yes">
        <source>Sandbar stopped %n session(s) of %1 at 100 % of its budget: %2</source>
        <translation>
            <numerusform>Sandbar hat %n Sitzung von %1 bei 100 % des Budgets gestoppt: %2</numerusform>
            <numerusform>Sandbar hat %n Sitzungen von %1 bei 100 % des Budgets gestoppt: %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Running now: %1/h</source>
        <translation>Laufend: %1/h</translation>
    </message>
    <message>
        <source>Cost of the running sessions, by their providers&apos; prices</source>
        <translation>Kosten der laufenden Sitzungen nach den Preisen ihrer Anbieter</translation>
    </message>
    <message>
        <source>Budget for %1</source>
        <translation>Budget für %1</translation>
    </message>
    <message>
        <source>No budget</source>
        <translation>Kein Budget</translation>
    </message>
    <message>
        <source>Stop this account&apos;s running sessions at 100 %</source>
        <translation>Laufende Sitzungen dieses Kontos bei 100 % stoppen</translation>
    </message>
    <message>
        <source>%1 spent this month</source>
        <translation>%1 in diesem Monat ausgegeben</translation>
    </message>
    <message>
        <source>Monthly budget:</source>
        <translation>Monatliches Budget:</translation>
    </message>
    <message>
        <source>So far:</source>
        <translation>Bisher:</translation>
    </message>
    <message>
        <source>You are told at 80 % and at 100 %.</source>
        <translation>Sie werden bei 80 % und bei 100 % benachrichtigt.</translation>
    </message>
    <message>
        <source>Budget not saved</source>
        <translation>Budget nicht gespeichert</translation>
    </message>
    <message>
        <source>%1: %2/h</source>
        <translation>%1: %2/h</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::DescriptorForm</name>
    <message>
        <source>•••• stored in keychain</source>
        <translation>•••• im Schlüsselbund gespeichert</translation>
    </message>
    <message>
        <source>Replace…</source>
        <translation>Ersetzen…</translation>
    </message>
    <message>
        <source>Replace %1</source>
        <translation>%1 ersetzen</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::DetailStack</name>
    <message>
        <source>%1 — Sandbar</source>
        <translation>%1 — Sandbar</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::ExecConsole</name>
    <message>
        <source>Run</source>
        <translation>Ausführen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>This session&apos;s provider has no interactive terminal. Each line runs on its own as &lt;tt&gt;sh -c LINE&lt;/tt&gt;, without a TTY: programs that need a terminal (editors, pagers, password prompts) will not work, and nothing is kept between lines (cd, variables).</source>
        <translation>Der Anbieter dieser Sitzung bietet kein interaktives Terminal. Jede Zeile wird einzeln als &lt;tt&gt;sh -c LINE&lt;/tt&gt; ohne TTY ausgeführt: Programme, die ein Terminal benötigen (Editoren, Pager, Passwortabfragen), funktionieren nicht, und zwischen den Zeilen bleibt nichts erhalten (cd, Variablen).</translation>
    </message>
    <message>
        <source>Command to run in %1</source>
        <translation>Befehl, der in %1 ausgeführt werden soll</translation>
    </message>
    <message>
        <source>Stop the running command (Ctrl+C)</source>
        <translation>Laufenden Befehl stoppen (Strg+C)</translation>
    </message>
    <message>
        <source>The session&apos;s account is gone; nothing was run.</source>
        <translation>Das Konto der Sitzung ist nicht mehr vorhanden; es wurde nichts ausgeführt.</translation>
    </message>
    <message>
        <source>The command was cancelled.</source>
        <translation>Der Befehl wurde abgebrochen.</translation>
    </message>
    <message>
        <source>[exit %1]</source>
        <translation>[Exit %1]</translation>
    </message>
    <message>
        <source>[cancelled]</source>
        <translation>[abgebrochen]</translation>
    </message>
    <message>
        <source>[failed: %1]</source>
        <translation>[fehlgeschlagen: %1]</translation>
    </message>
    <message>
        <source>Command output</source>
        <translation>Befehlsausgabe</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::FilesModel</name>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>Folder %1</source>
        <translation>Ordner %1</translation>
    </message>
    <message>
        <source>File %1</source>
        <translation>Datei %1</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Modified</source>
        <translation>Geändert</translation>
    </message>
    <message>
        <source>Permissions</source>
        <translation>Berechtigungen</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::FilesPane</name>
    <message>
        <source>Files</source>
        <translation>Dateien</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Zurück</translation>
    </message>
    <message>
        <source>Back to the previous folder</source>
        <translation>Zurück zum vorherigen Ordner</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>Nach oben</translation>
    </message>
    <message>
        <source>The folder above</source>
        <translation>Der übergeordnete Ordner</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>List this folder again</source>
        <translation>Diesen Ordner neu auflisten</translation>
    </message>
    <message>
        <source>Upload files…</source>
        <translation>Dateien hochladen…</translation>
    </message>
    <message>
        <source>Upload files into this folder</source>
        <translation>Dateien in diesen Ordner hochladen</translation>
    </message>
    <message>
        <source>Download…</source>
        <translation>Herunterladen…</translation>
    </message>
    <message>
        <source>Save the selection on this computer</source>
        <translation>Auswahl auf diesem Computer speichern</translation>
    </message>
    <message>
        <source>New folder</source>
        <translation>Neuer Ordner</translation>
    </message>
    <message>
        <source>Make a folder here</source>
        <translation>Hier einen Ordner anlegen</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Delete the selection</source>
        <translation>Auswahl löschen</translation>
    </message>
    <message>
        <source>Folder name:</source>
        <translation>Ordnername:</translation>
    </message>
    <message>
        <source>New folder name</source>
        <translation>Name des neuen Ordners</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>Erstellen</translation>
    </message>
    <message>
        <source>Create folder</source>
        <translation>Ordner erstellen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Cancel new folder</source>
        <translation>Neuen Ordner abbrechen</translation>
    </message>
    <message>
        <source>Files notice</source>
        <translation>Hinweis zu Dateien</translation>
    </message>
    <message>
        <source>Files in the session</source>
        <translation>Dateien in der Sitzung</translation>
    </message>
    <message>
        <source>This session&apos;s account is not connected.</source>
        <translation>Das Konto dieser Sitzung ist nicht verbunden.</translation>
    </message>
    <message>
        <source>%1 sessions offer no file access: files cannot be listed or copied.</source>
        <translation>Sitzungen von %1 bieten keinen Dateizugriff: Dateien können weder aufgelistet noch kopiert werden.</translation>
    </message>
    <message>
        <source>The session is paused. Resume it to see its files.</source>
        <translation>Die Sitzung ist pausiert. Setzen Sie sie fort, um ihre Dateien zu sehen.</translation>
    </message>
    <message>
        <source>The session is not running. Start it to see its files.</source>
        <translation>Die Sitzung läuft nicht. Starten Sie sie, um ihre Dateien zu sehen.</translation>
    </message>
    <message>
        <source>%1 cannot list a session&apos;s files. Drop files here to upload them into %2.</source>
        <translation>%1 kann die Dateien einer Sitzung nicht auflisten. Legen Sie Dateien hier ab, um sie nach %2 hochzuladen.</translation>
    </message>
    <message>
        <source>%1 can list this session&apos;s files but not copy them.</source>
        <translation>%1 kann die Dateien dieser Sitzung auflisten, aber nicht kopieren.</translation>
    </message>
    <message>
        <source>Cannot list %1: %2</source>
        <translation>%1 kann nicht aufgelistet werden: %2</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Öffnen</translation>
    </message>
    <message>
        <source>Files cannot be uploaded to this session.</source>
        <translation>In diese Sitzung können keine Dateien hochgeladen werden.</translation>
    </message>
    <message>
        <source>Save As</source>
        <translation>Speichern unter</translation>
    </message>
    <message numerus="yes">
        <source>Save %n items into</source>
        <translation>
            <numerusform>%n Element speichern in</numerusform>
            <numerusform>%n Elemente speichern in</numerusform>
        </translation>
    </message>
    <message>
        <source>Upload to %1</source>
        <translation>Nach %1 hochladen</translation>
    </message>
    <message>
        <source>Delete “%1” from the session? A folder is deleted with everything in it.</source>
        <translation>„%1“ aus der Sitzung löschen? Ein Ordner wird mit seinem gesamten Inhalt gelöscht.</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n items from the session? Folders are deleted with everything in them.</source>
        <translation>
            <numerusform>%n Element aus der Sitzung löschen? Ordner werden mit ihrem gesamten Inhalt gelöscht.</numerusform>
            <numerusform>%n Elemente aus der Sitzung löschen? Ordner werden mit ihrem gesamten Inhalt gelöscht.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Not deleted: %1</source>
        <translation>Nicht gelöscht: %1</translation>
    </message>
    <message>
        <source>“%1” is not a folder name.</source>
        <translation>„%1“ ist kein gültiger Ordnername.</translation>
    </message>
    <message>
        <source>Cannot make %1: %2</source>
        <translation>%1 kann nicht angelegt werden: %2</translation>
    </message>
    <message>
        <source>Could not prepare %1 for dragging: %2</source>
        <translation>%1 konnte nicht zum Ziehen vorbereitet werden: %2</translation>
    </message>
    <message>
        <source>Ready to drag: drag the selection again to drop it.</source>
        <translation>Bereit zum Ziehen: Ziehen Sie die Auswahl erneut, um sie abzulegen.</translation>
    </message>
    <message>
        <source>No temporary folder for dragging: %1</source>
        <translation>Kein temporärer Ordner zum Ziehen: %1</translation>
    </message>
    <message numerus="yes">
        <source>Preparing %n item(s) for dragging…</source>
        <translation>
            <numerusform>%n Element wird zum Ziehen vorbereitet…</numerusform>
            <numerusform>%n Elemente werden zum Ziehen vorbereitet…</numerusform>
        </translation>
    </message>
    <message>
        <source>Columns: click to sort</source>
        <translation>Spalten: zum Sortieren klicken</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>Umbenennen…</translation>
    </message>
    <message>
        <source>Give the selected item a new name</source>
        <translation>Dem gewählten Eintrag einen neuen Namen geben</translation>
    </message>
    <message>
        <source>Permissions…</source>
        <translation>Berechtigungen…</translation>
    </message>
    <message>
        <source>Change who may read, write or run it</source>
        <translation>Ändern, wer lesen, schreiben oder ausführen darf</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>Umbenennen</translation>
    </message>
    <message>
        <source>New name of “%1”:</source>
        <translation>Neuer Name für „%1“:</translation>
    </message>
    <message>
        <source>“%1” is not a file name.</source>
        <translation>„%1“ ist kein Dateiname.</translation>
    </message>
    <message>
        <source>Not renamed: %1</source>
        <translation>Nicht umbenannt: %1</translation>
    </message>
    <message>
        <source>Permissions</source>
        <translation>Berechtigungen</translation>
    </message>
    <message>
        <source>Permissions of “%1” as octal digits:
644: the owner reads and writes, everyone else reads; 755: and everyone may also run it or enter it.</source>
        <translation>Berechtigungen von „%1“ als Oktalziffern:
644: der Eigentümer liest und schreibt, alle anderen lesen; 755: und alle dürfen es auch ausführen oder betreten.</translation>
    </message>
    <message>
        <source>“%1” is not a mode: give one to four octal digits, such as 644.</source>
        <translation>„%1“ ist kein Modus: eine bis vier Oktalziffern angeben, etwa 644.</translation>
    </message>
    <message>
        <source>Permissions not changed: %1</source>
        <translation>Berechtigungen nicht geändert: %1</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::FirstStartPanel</name>
    <message>
        <source>&lt;h2&gt;Welcome to Sandbar&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;Willkommen bei Sandbar&lt;/h2&gt;</translation>
    </message>
    <message>
        <source>Sandbar runs AI agents in sandboxes. Choose where the first ones run; you can add more places later.</source>
        <translation>Sandbar führt AI-Agenten in Sandboxes aus. Wählen Sie, wo die ersten laufen sollen; weitere Orte können Sie später hinzufügen.</translation>
    </message>
    <message>
        <source>Looking for engines on this computer…</source>
        <translation>Suche nach Engines auf diesem Computer…</translation>
    </message>
    <message>
        <source>Add another account…</source>
        <translation>Weiteres Konto hinzufügen…</translation>
    </message>
    <message>
        <source>Add another account</source>
        <translation>Weiteres Konto hinzufügen</translation>
    </message>
    <message>
        <source>Use the Local sandbox (bubblewrap on this computer, no daemon)</source>
        <translation>Lokale Sandbox verwenden (bubblewrap auf diesem Computer, kein Daemon)</translation>
    </message>
    <message>
        <source>Use %1</source>
        <translation>%1 verwenden</translation>
    </message>
    <message>
        <source>No engine answered on this computer.</source>
        <translation>Auf diesem Computer hat keine Engine geantwortet.</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::HostKeyPrompt</name>
    <message>
        <source>Trust the host %1?</source>
        <translation>Dem Rechner %1 vertrauen?</translation>
    </message>
    <message>
        <source>ssh does not know the host %1 of the account %2. It offers this key:

%3

Trust it only if it is the host&apos;s own: compare it with what its administrator gives you, or with ssh-keygen -lf on the host&apos;s key there. Trusting writes it to %4, where ssh looks for it.</source>
        <translation>ssh kennt den Rechner %1 des Kontos %2 nicht. Er bietet diesen Schlüssel an:

%3

Vertrauen Sie ihm nur, wenn es der Schlüssel des Rechners ist: vergleichen Sie ihn mit dem, den Ihnen seine Verwaltung nennt, oder mit ssh-keygen -lf auf den Rechnerschlüssel dort. Vertrauen schreibt ihn nach %4, wo ssh ihn sucht.</translation>
    </message>
    <message>
        <source>Trust this key</source>
        <translation>Diesem Schlüssel vertrauen</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::InfoView</name>
    <message>
        <source>Session information</source>
        <translation>Sitzungsinformationen</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>Sitzung</translation>
    </message>
    <message>
        <source>Resources</source>
        <translation>Ressourcen</translation>
    </message>
    <message>
        <source>Forwarded ports</source>
        <translation>Weitergeleitete Ports</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Port</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <source>Labels</source>
        <translation>Labels</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Mounts</source>
        <translation>Einhängepunkte</translation>
    </message>
    <message>
        <source>Host folder</source>
        <translation>Host-Ordner</translation>
    </message>
    <message>
        <source>Session path</source>
        <translation>Pfad in der Sitzung</translation>
    </message>
    <message>
        <source>Access</source>
        <translation>Zugriff</translation>
    </message>
    <message>
        <source>Provider&apos;s description (JSON)</source>
        <translation>Beschreibung des Anbieters (JSON)</translation>
    </message>
    <message>
        <source>Show the provider&apos;s description</source>
        <translation>Beschreibung des Anbieters anzeigen</translation>
    </message>
    <message>
        <source>Provider&apos;s description of the session</source>
        <translation>Beschreibung der Sitzung durch den Anbieter</translation>
    </message>
    <message>
        <source>Copy JSON</source>
        <translation>JSON kopieren</translation>
    </message>
    <message>
        <source>Copy the provider&apos;s description</source>
        <translation>Beschreibung des Anbieters kopieren</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Account</source>
        <translation>Konto</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>Image</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>Läuft ab</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>all</source>
        <translation>alle</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>CPUs</source>
        <translation>CPUs</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>kein Limit</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Arbeitsspeicher</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>Netzwerk</translation>
    </message>
    <message>
        <source>on</source>
        <translation>an</translation>
    </message>
    <message>
        <source>off (no network)</source>
        <translation>aus (kein Netzwerk)</translation>
    </message>
    <message>
        <source>No labels.</source>
        <translation>Keine Labels.</translation>
    </message>
    <message>
        <source>read-only</source>
        <translation>schreibgeschützt</translation>
    </message>
    <message>
        <source>read-write</source>
        <translation>Lesen/Schreiben</translation>
    </message>
    <message>
        <source>No folders are shared with this session.</source>
        <translation>Für diese Sitzung sind keine Ordner freigegeben.</translation>
    </message>
    <message>
        <source>This provider does not share folders.</source>
        <translation>Dieser Anbieter unterstützt keine Ordnerfreigaben.</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Öffnen</translation>
    </message>
    <message>
        <source>Open %1 in the browser</source>
        <translation>%1 im Browser öffnen</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Copy %1</source>
        <translation>%1 kopieren</translation>
    </message>
    <message>
        <source>No ports are forwarded; add them when creating a session.</source>
        <translation>Es werden keine Ports weitergeleitet; fügen Sie sie beim Erstellen einer Sitzung hinzu.</translation>
    </message>
    <message>
        <source>This provider does not forward ports.</source>
        <translation>Dieser Anbieter leitet keine Ports weiter.</translation>
    </message>
    <message>
        <source>Hide the provider&apos;s description</source>
        <translation>Beschreibung des Anbieters ausblenden</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::ListFieldEditor</name>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Host folder</source>
        <translation>Host-Ordner</translation>
    </message>
    <message>
        <source>Session path</source>
        <translation>Pfad in der Sitzung</translation>
    </message>
    <message>
        <source>Read-only</source>
        <translation>Schreibgeschützt</translation>
    </message>
    <message>
        <source>Add a row</source>
        <translation>Zeile hinzufügen</translation>
    </message>
    <message>
        <source>Add to %1</source>
        <translation>Zu %1 hinzufügen</translation>
    </message>
    <message>
        <source>Remove the selected row</source>
        <translation>Ausgewählte Zeile entfernen</translation>
    </message>
    <message>
        <source>Remove from %1</source>
        <translation>Aus %1 entfernen</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>Choose the host folder</source>
        <translation>Host-Ordner auswählen</translation>
    </message>
    <message>
        <source>Folder to share</source>
        <translation>Freizugebender Ordner</translation>
    </message>
    <message>
        <source>+</source>
        <translation>+</translation>
    </message>
    <message>
        <source>−</source>
        <translation>−</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::LogsView</name>
    <message>
        <source>Log of %1</source>
        <translation>Protokoll von %1</translation>
    </message>
    <message>
        <source>Filter lines</source>
        <translation>Zeilen filtern</translation>
    </message>
    <message>
        <source>Filter log lines</source>
        <translation>Protokollzeilen filtern</translation>
    </message>
    <message>
        <source>Follow</source>
        <translation>Mitverfolgen</translation>
    </message>
    <message>
        <source>Keep the newest line in view</source>
        <translation>Die neueste Zeile sichtbar halten</translation>
    </message>
    <message>
        <source>Follow the log</source>
        <translation>Protokoll mitverfolgen</translation>
    </message>
    <message>
        <source>Timestamps</source>
        <translation>Zeitstempel</translation>
    </message>
    <message>
        <source>Show when each line was written (reloads the log)</source>
        <translation>Anzeigen, wann jede Zeile geschrieben wurde (lädt das Protokoll neu)</translation>
    </message>
    <message>
        <source>Show timestamps</source>
        <translation>Zeitstempel anzeigen</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Leeren</translation>
    </message>
    <message>
        <source>Clear the log view</source>
        <translation>Protokollansicht leeren</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>Speichern…</translation>
    </message>
    <message>
        <source>Save the log to a file</source>
        <translation>Protokoll in einer Datei speichern</translation>
    </message>
    <message>
        <source>Session log</source>
        <translation>Sitzungsprotokoll</translation>
    </message>
    <message>
        <source>Log status</source>
        <translation>Protokollstatus</translation>
    </message>
    <message>
        <source>Reconnecting…</source>
        <translation>Verbindung wird wiederhergestellt…</translation>
    </message>
    <message>
        <source>— reconnected; lines written while disconnected may be missing —</source>
        <translation>— Verbindung wiederhergestellt; während der Unterbrechung geschriebene Zeilen fehlen möglicherweise —</translation>
    </message>
    <message>
        <source>This provider does not keep a log for its sessions.</source>
        <translation>Dieser Anbieter führt kein Protokoll für seine Sitzungen.</translation>
    </message>
    <message>
        <source>Following the log…</source>
        <translation>Protokoll wird mitverfolgt…</translation>
    </message>
    <message>
        <source>The log ended (the session stopped).</source>
        <translation>Das Protokoll ist zu Ende (die Sitzung wurde gestoppt).</translation>
    </message>
    <message>
        <source>The log could not be read: %1</source>
        <translation>Das Protokoll konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>The log stream broke (%1); reconnecting in %2 s…</source>
        <translation>Der Protokollstream ist abgebrochen (%1); neue Verbindung in %2 s…</translation>
    </message>
    <message>
        <source>Save the log</source>
        <translation>Protokoll speichern</translation>
    </message>
    <message>
        <source>Could not save the log to %1: %2</source>
        <translation>Das Protokoll konnte nicht in %1 gespeichert werden: %2</translation>
    </message>
    <message numerus="yes">
        <source>Saved %n line(s) to %1.</source>
        <translation>
            <numerusform>%n Zeile in %1 gespeichert.</numerusform>
            <numerusform>%n Zeilen in %1 gespeichert.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sandbar::ui::MainWindow</name>
    <message>
        <source>Sandbar</source>
        <translation>Sandbar</translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation>Sitzungen</translation>
    </message>
    <message>
        <source>New session…</source>
        <translation>Neue Sitzung…</translation>
    </message>
    <message>
        <source>Terminal</source>
        <translation>Terminal</translation>
    </message>
    <message>
        <source>Statistics</source>
        <translation>Statistik</translation>
    </message>
    <message>
        <source>Charts of CPU, memory, network, disk and GPU for the selected session</source>
        <translation>Diagramme zu CPU, Speicher, Netzwerk, Datenträger und GPU der ausgewählten Sitzung</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>Dateien</translation>
    </message>
    <message>
        <source>Browse, upload and download the selected session&apos;s files</source>
        <translation>Dateien der ausgewählten Sitzung durchsuchen, hochladen und herunterladen</translation>
    </message>
    <message>
        <source>Session info</source>
        <translation>Sitzungsinfo</translation>
    </message>
    <message>
        <source>Logs</source>
        <translation>Protokolle</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stoppen</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausieren</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Add account…</source>
        <translation>Konto hinzufügen…</translation>
    </message>
    <message>
        <source>Remove account</source>
        <translation>Konto entfernen</translation>
    </message>
    <message>
        <source>Check connection</source>
        <translation>Verbindung prüfen</translation>
    </message>
    <message>
        <source>Budget…</source>
        <translation>Budget…</translation>
    </message>
    <message>
        <source>Compare providers…</source>
        <translation>Anbieter vergleichen…</translation>
    </message>
    <message>
        <source>Compare providers — Sandbar</source>
        <translation>Anbieter vergleichen — Sandbar</translation>
    </message>
    <message>
        <source>&lt;b&gt;Accounts&lt;/b&gt;</source>
        <translation>&lt;b&gt;Konten&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Select a session to see its terminals, statistics, files, details and logs, or create one with &lt;b&gt;New session&lt;/b&gt; (Ctrl+N).</source>
        <translation>Wählen Sie eine Sitzung aus, um ihre Terminals, Statistik, Dateien, Details und Protokolle zu sehen, oder erstellen Sie eine mit &lt;b&gt;Neue Sitzung&lt;/b&gt; (Strg+N).</translation>
    </message>
    <message>
        <source>All accounts</source>
        <translation>Alle Konten</translation>
    </message>
    <message numerus="yes">
        <source>%n account(s)</source>
        <translation>
            <numerusform>%n Konto</numerusform>
            <numerusform>%n Konten</numerusform>
        </translation>
    </message>
    <message>
        <source>Add account</source>
        <translation>Konto hinzufügen</translation>
    </message>
    <message>
        <source>Remove the account %1? Its sessions keep running; its secrets are deleted from the keychain.</source>
        <translation>Das Konto %1 entfernen? Seine Sitzungen laufen weiter; seine Geheimnisse werden aus dem Schlüsselbund gelöscht.</translation>
    </message>
    <message>
        <source>Check %1</source>
        <translation>%1 prüfen</translation>
    </message>
    <message>
        <source>%1: %2 %3, API %4</source>
        <translation>%1: %2 %3, API %4</translation>
    </message>
    <message>
        <source>Created %1</source>
        <translation>%1 erstellt</translation>
    </message>
    <message>
        <source>Open a new terminal in the selected session</source>
        <translation>Neues Terminal in der ausgewählten Sitzung öffnen</translation>
    </message>
    <message>
        <source>Remove the selected sessions (their files inside the sandbox are deleted)</source>
        <translation>Ausgewählte Sitzungen entfernen (ihre Dateien in der Sandbox werden gelöscht)</translation>
    </message>
    <message>
        <source>Edit account…</source>
        <translation>Konto bearbeiten…</translation>
    </message>
    <message>
        <source>Accounts</source>
        <translation>Konten</translation>
    </message>
    <message>
        <source>More account actions</source>
        <translation>Weitere Kontoaktionen</translation>
    </message>
    <message>
        <source>%1: %2 session(s)…</source>
        <translation>%1: %2 Sitzung(en)…</translation>
    </message>
    <message>
        <source>Done: %1 session(s).</source>
        <translation>Erledigt: %1 Sitzung(en).</translation>
    </message>
    <message>
        <source>%1 done, %2 not done.</source>
        <translation>%1 erledigt, %2 nicht erledigt.</translation>
    </message>
    <message>
        <source>No accounts yet: choose one to start.</source>
        <translation>Noch keine Konten: Wählen Sie eines aus, um zu beginnen.</translation>
    </message>
    <message>
        <source>Edit account</source>
        <translation>Konto bearbeiten</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>Preferences…</source>
        <translation>Einstellungen…</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Beenden</translation>
    </message>
    <message>
        <source>&amp;Session</source>
        <translation>&amp;Sitzung</translation>
    </message>
    <message>
        <source>New session like this…</source>
        <translation>Neue Sitzung wie diese…</translation>
    </message>
    <message>
        <source>&amp;Accounts</source>
        <translation>&amp;Konten</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>Audit log…</source>
        <translation>Audit-Protokoll…</translation>
    </message>
    <message>
        <source>Audit log — Sandbar</source>
        <translation>Audit-Protokoll — Sandbar</translation>
    </message>
    <message>
        <source>Filter sessions</source>
        <translation>Sitzungen filtern</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>About Sandbar</source>
        <translation>Über Sandbar</translation>
    </message>
    <message>
        <source>&lt;b&gt;Sandbar&lt;/b&gt; %1&lt;br&gt;Local and cloud sandboxes for AI agents, side by side.</source>
        <translation>&lt;b&gt;Sandbar&lt;/b&gt; %1&lt;br&gt;Lokale und Cloud-Sandboxes für KI-Agenten, Seite an Seite.</translation>
    </message>
    <message>
        <source>Archive</source>
        <translation>Archivieren</translation>
    </message>
    <message>
        <source>Move the selected sessions to the provider&apos;s cheaper storage; Resume restores them</source>
        <translation>Die ausgewählten Sitzungen in den günstigeren Speicher des Anbieters verschieben; Fortsetzen stellt sie wieder her</translation>
    </message>
    <message>
        <source>Created %1; %2 shortened its time limit to %3 minutes, the most the account allows</source>
        <translation>%1 erstellt; %2 hat das Zeitlimit auf %3 Minuten gekürzt, das Höchste, was das Konto erlaubt</translation>
    </message>
    <message>
        <source>Agents…</source>
        <translation>Agenten…</translation>
    </message>
    <message>
        <source>What AI agents do through Sandbar&apos;s MCP server, and the calls waiting for your approval</source>
        <translation>Was KI-Agenten über den MCP-Server von Sandbar tun, und die Aufrufe, die auf Ihre Freigabe warten</translation>
    </message>
    <message>
        <source>Agents — Sandbar</source>
        <translation>Agenten — Sandbar</translation>
    </message>
    <message>
        <source>Agents (%1)…</source>
        <translation>Agenten (%1)…</translation>
    </message>
    <message>
        <source>Open Agents to approve or deny</source>
        <translation>„Agenten“ öffnen, um freizugeben oder abzulehnen</translation>
    </message>
    <message numerus="yes">
        <source>%n agent call(s) waiting for approval</source>
        <translation>
            <numerusform>%n Agentenaufruf wartet auf Freigabe</numerusform>
            <numerusform>%n Agentenaufrufe warten auf Freigabe</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: trusted the key %2 of %3</source>
        <translation>%1: dem Schlüssel %2 von %3 wird vertraut</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1 auf %2</translation>
    </message>
    <message>
        <source>Fork %1</source>
        <translation>%1 abzweigen</translation>
    </message>
    <message>
        <source>Name of the copy (empty: the provider picks one):</source>
        <translation>Name der Kopie (leer: der Anbieter wählt einen):</translation>
    </message>
    <message>
        <source>Forking %1…</source>
        <translation>%1 wird abgezweigt…</translation>
    </message>
    <message>
        <source>The fork failed: %1</source>
        <translation>Das Abzweigen ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Forked: %1</source>
        <translation>Abgezweigt: %1</translation>
    </message>
    <message>
        <source>Fork…</source>
        <translation>Abzweigen…</translation>
    </message>
    <message>
        <source>A new session with a copy of this one&apos;s files and settings, where the provider can</source>
        <translation>Eine neue Sitzung mit einer Kopie der Dateien und Einstellungen dieser, wo der Anbieter es kann</translation>
    </message>
    <message>
        <source>The account is no longer connected.</source>
        <translation>Das Konto ist nicht mehr verbunden.</translation>
    </message>
    <message>
        <source>Settings changed: %1</source>
        <translation>Einstellungen geändert: %1</translation>
    </message>
    <message>
        <source>Session settings…</source>
        <translation>Sitzungseinstellungen…</translation>
    </message>
    <message>
        <source>Change what the provider lets change on a session as it runs</source>
        <translation>Ändern, was der Anbieter an einer laufenden Sitzung ändern lässt</translation>
    </message>
    <message>
        <source>Labels…</source>
        <translation>Labels …</translation>
    </message>
    <message>
        <source>Your labels on the session, where the provider can change them</source>
        <translation>Ihre Labels an der Sitzung, wo der Anbieter sie ändern kann</translation>
    </message>
    <message>
        <source>Labels</source>
        <translation>Labels</translation>
    </message>
    <message>
        <source>Your labels on %1, one KEY=VALUE a line (Sandbar&apos;s own stay as they are):</source>
        <translation>Ihre Labels an %1, ein KEY=VALUE je Zeile (Sandbars eigene bleiben, wie sie sind):</translation>
    </message>
    <message>
        <source>Labels not changed: %1</source>
        <translation>Labels nicht geändert: %1</translation>
    </message>
    <message>
        <source>Labels changed: %1</source>
        <translation>Labels geändert: %1</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::NewSessionDialog</name>
    <message>
        <source>New session</source>
        <translation>Neue Sitzung</translation>
    </message>
    <message>
        <source>Account</source>
        <translation>Konto</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>optional</source>
        <translation>optional</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>Erstellen</translation>
    </message>
    <message>
        <source>Add an account first</source>
        <translation>Fügen Sie zuerst ein Konto hinzu</translation>
    </message>
    <message>
        <source>Image *</source>
        <translation>Image *</translation>
    </message>
    <message>
        <source>Time limit</source>
        <translation>Zeitlimit</translation>
    </message>
    <message>
        <source>Session name</source>
        <translation>Sitzungsname</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>Image</translation>
    </message>
    <message>
        <source>e.g. python:3.12-slim</source>
        <translation>z. B. python:3.12-slim</translation>
    </message>
    <message>
        <source>The session ends itself after this long, even with Sandbar closed</source>
        <translation>Die Sitzung beendet sich nach dieser Dauer selbst, auch wenn Sandbar geschlossen ist</translation>
    </message>
    <message>
        <source>15 minutes</source>
        <translation>15 Minuten</translation>
    </message>
    <message>
        <source>1 hour</source>
        <translation>1 Stunde</translation>
    </message>
    <message>
        <source>4 hours</source>
        <translation>4 Stunden</translation>
    </message>
    <message>
        <source>8 hours</source>
        <translation>8 Stunden</translation>
    </message>
    <message>
        <source>1 day</source>
        <translation>1 Tag</translation>
    </message>
    <message>
        <source>No limit</source>
        <translation>Kein Limit</translation>
    </message>
    <message>
        <source>Estimated cost</source>
        <translation>Geschätzte Kosten</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>Fortschritt</translation>
    </message>
    <message>
        <source>No time limit</source>
        <translation>Kein Zeitlimit</translation>
    </message>
    <message>
        <source>Without a time limit the session runs, and may cost money, until you stop it. Run it without a limit?</source>
        <translation>Ohne Zeitlimit läuft die Sitzung – und verursacht möglicherweise Kosten –, bis Sie sie stoppen. Ohne Limit ausführen?</translation>
    </message>
    <message>
        <source>$0.00/h — runs on your own machine: %1 uses this computer&apos;s (or your engine&apos;s) CPU and memory, and no provider bills by the hour.</source>
        <translation>$0.00/h — läuft auf Ihrem eigenen Rechner: %1 nutzt CPU und Arbeitsspeicher dieses Computers (oder Ihrer Engine), und kein Anbieter rechnet stundenweise ab.</translation>
    </message>
    <message>
        <source>Cost per hour unknown: the catalog has no prices for %1.</source>
        <translation>Kosten pro Stunde unbekannt: Der Katalog enthält keine Preise für %1.</translation>
    </message>
    <message>
        <source>Cost per hour unknown: %1</source>
        <translation>Kosten pro Stunde unbekannt: %1</translation>
    </message>
    <message>
        <source>%1 vCPU, %2 GiB</source>
        <translation>%1 vCPU, %2 GiB</translation>
    </message>
    <message>
        <source>, %1 × %2</source>
        <translation>, %1 × %2</translation>
    </message>
    <message>
        <source>About %1/h for %2 at %3&apos;s published prices, while it runs.</source>
        <translation>Etwa %1/h für %2 zu den veröffentlichten Preisen von %3, solange sie läuft.</translation>
    </message>
    <message>
        <source>%1 is required</source>
        <translation>%1 ist erforderlich</translation>
    </message>
    <message>
        <source>Creating…</source>
        <translation>Wird erstellt…</translation>
    </message>
    <message>
        <source>Creating the session failed: %1</source>
        <translation>Erstellen der Sitzung fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>%1 (as before)</source>
        <translation>%1 (wie zuvor)</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::Notifier</name>
    <message numerus="yes">
        <source>%n running</source>
        <comment>sessions</comment>
        <translation>
            <numerusform>%n läuft</numerusform>
            <numerusform>%n laufen</numerusform>
        </translation>
    </message>
    <message>
        <source>$%1/h</source>
        <translation>$%1/h</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <comment>tray status: count · cost</comment>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Session failed</source>
        <translation>Sitzung fehlgeschlagen</translation>
    </message>
    <message>
        <source>%1 stopped with an error.</source>
        <translation>%1 wurde mit einem Fehler beendet.</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Session expired</source>
        <translation>Sitzung abgelaufen</translation>
    </message>
    <message>
        <source>%1 reached its time limit and is being stopped.</source>
        <translation>%1 hat das Zeitlimit erreicht und wird gestoppt.</translation>
    </message>
    <message>
        <source>Session expires soon</source>
        <translation>Sitzung läuft bald ab</translation>
    </message>
    <message numerus="yes">
        <source>%1 will be stopped in %n minute(s) (its time limit).</source>
        <translation>
            <numerusform>%1 wird in %n Minute gestoppt (Zeitlimit).</numerusform>
            <numerusform>%1 wird in %n Minuten gestoppt (Zeitlimit).</numerusform>
        </translation>
    </message>
    <message>
        <source>Budget reached</source>
        <translation>Budget erreicht</translation>
    </message>
    <message>
        <source>Budget alert</source>
        <translation>Budgetwarnung</translation>
    </message>
    <message>
        <source>Account %1 has used %2 % of this month&apos;s budget.</source>
        <translation>Konto %1 hat %2 % des Budgets dieses Monats verbraucht.</translation>
    </message>
    <message>
        <source>Sessions stopped</source>
        <translation>Sitzungen gestoppt</translation>
    </message>
    <message numerus="yes">
        <source>Account %1 reached its budget: %n session(s) stopped.</source>
        <translation>
            <numerusform>Konto %1 hat sein Budget erreicht: %n Sitzung gestoppt.</numerusform>
            <numerusform>Konto %1 hat sein Budget erreicht: %n Sitzungen gestoppt.</numerusform>
        </translation>
    </message>
    <message>
        <source>An agent asks for your approval</source>
        <translation>Ein Agent bittet um Ihre Freigabe</translation>
    </message>
    <message>
        <source>%1 wants to call %2. Open Agents in Sandbar to approve or deny it.</source>
        <translation>%1 möchte %2 aufrufen. Öffnen Sie „Agenten“ in Sandbar, um den Aufruf freizugeben oder abzulehnen.</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::PathBar</name>
    <message>
        <source>Path</source>
        <translation>Pfad</translation>
    </message>
    <message>
        <source>Go to…</source>
        <translation>Gehe zu…</translation>
    </message>
    <message>
        <source>Type a path to go to</source>
        <translation>Geben Sie einen Pfad ein, zu dem gewechselt werden soll</translation>
    </message>
    <message>
        <source>Go to path</source>
        <translation>Zu Pfad wechseln</translation>
    </message>
    <message>
        <source>Path to go to</source>
        <translation>Zielpfad</translation>
    </message>
    <message>
        <source>/path/in/the/session</source>
        <translation>/pfad/in/der/sitzung</translation>
    </message>
    <message>
        <source>Go to %1</source>
        <translation>Zu %1 wechseln</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::PreferencesDialog</name>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>Preferences</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Preference pages</source>
        <translation>Einstellungsseiten</translation>
    </message>
    <message>
        <source>&amp;Appearance</source>
        <translation>&amp;Darstellung</translation>
    </message>
    <message>
        <source>&amp;Terminal</source>
        <translation>&amp;Terminal</translation>
    </message>
    <message>
        <source>&amp;Sessions</source>
        <translation>&amp;Sitzungen</translation>
    </message>
    <message>
        <source>T&amp;ray</source>
        <translation>&amp;Infobereich</translation>
    </message>
    <message>
        <source>Save and close</source>
        <translation>Speichern und schließen</translation>
    </message>
    <message>
        <source>Close without saving</source>
        <translation>Ohne Speichern schließen</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Übernehmen</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>Wie das System</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Hell</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Dunkel</translation>
    </message>
    <message>
        <source>&amp;Theme:</source>
        <translation>&amp;Farbschema:</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>Farbschema</translation>
    </message>
    <message>
        <source>Terminals use the same light or dark colours as the window.</source>
        <translation>Terminals verwenden dieselben hellen oder dunklen Farben wie das Fenster.</translation>
    </message>
    <message>
        <source>&amp;Font:</source>
        <translation>Schrift&amp;art:</translation>
    </message>
    <message>
        <source>Terminal font</source>
        <translation>Terminal-Schriftart</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source> pt</source>
        <translation> pt</translation>
    </message>
    <message>
        <source>Font &amp;size:</source>
        <translation>Schrift&amp;größe:</translation>
    </message>
    <message>
        <source>Terminal font size</source>
        <translation>Terminal-Schriftgröße</translation>
    </message>
    <message>
        <source> lines</source>
        <translation> Zeilen</translation>
    </message>
    <message>
        <source>Scroll&amp;back:</source>
        <translation>&amp;Verlauf:</translation>
    </message>
    <message>
        <source>Scrollback lines</source>
        <translation>Zeilen im Verlauf</translation>
    </message>
    <message>
        <source>&amp;Copy selected text automatically</source>
        <translation>Ausgewählten Text automatisch &amp;kopieren</translation>
    </message>
    <message>
        <source>Font and scrollback apply to terminals opened from now on.</source>
        <translation>Schriftart und Verlauf gelten für ab jetzt geöffnete Terminals.</translation>
    </message>
    <message>
        <source>No limit</source>
        <translation>Kein Limit</translation>
    </message>
    <message>
        <source>Default &amp;time limit:</source>
        <translation>Standard-&amp;Zeitlimit:</translation>
    </message>
    <message>
        <source>Default session time limit</source>
        <translation>Standard-Zeitlimit für Sitzungen</translation>
    </message>
    <message>
        <source>Statistics in the &amp;list every:</source>
        <translation>Statistik in der &amp;Liste alle:</translation>
    </message>
    <message>
        <source>Statistics period in the session list</source>
        <translation>Statistikintervall in der Sitzungsliste</translation>
    </message>
    <message>
        <source>Statistics in &amp;charts every:</source>
        <translation>Statistik in Diagra&amp;mmen alle:</translation>
    </message>
    <message>
        <source>Statistics period in the charts</source>
        <translation>Statistikintervall in den Diagrammen</translation>
    </message>
    <message>
        <source>New sessions start with this time limit. Statistics periods apply at the next start.</source>
        <translation>Neue Sitzungen starten mit diesem Zeitlimit. Statistikintervalle gelten ab dem nächsten Start.</translation>
    </message>
    <message>
        <source>&amp;Keep running in the tray when the window is closed</source>
        <translation>Bei geschlossenem Fenster im Infobereich &amp;weiterlaufen</translation>
    </message>
    <message>
        <source>Show &amp;notifications (failures, time limits, budgets)</source>
        <translation>Be&amp;nachrichtigungen anzeigen (Fehler, Zeitlimits, Budgets)</translation>
    </message>
    <message>
        <source>This desktop has no system tray: closing the window quits Sandbar.</source>
        <translation>Diese Arbeitsumgebung hat keinen Infobereich: Das Schließen des Fensters beendet Sandbar.</translation>
    </message>
    <message>
        <source>15 minutes</source>
        <translation>15 Minuten</translation>
    </message>
    <message>
        <source>1 hour</source>
        <translation>1 Stunde</translation>
    </message>
    <message>
        <source>4 hours</source>
        <translation>4 Stunden</translation>
    </message>
    <message>
        <source>8 hours</source>
        <translation>8 Stunden</translation>
    </message>
    <message>
        <source>1 day</source>
        <translation>1 Tag</translation>
    </message>
    <message numerus="yes">
        <source>%n hour(s)</source>
        <translation>
            <numerusform>%n Stunde</numerusform>
            <numerusform>%n Stunden</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n minute(s)</source>
        <translation>
            <numerusform>%n Minute</numerusform>
            <numerusform>%n Minuten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n second(s)</source>
        <translation>
            <numerusform>%n Sekunde</numerusform>
            <numerusform>%n Sekunden</numerusform>
        </translation>
    </message>
    <message>
        <source>The preferences could not be saved to %1. They apply until Sandbar quits.</source>
        <translation>Die Einstellungen konnten nicht in %1 gespeichert werden. Sie gelten, bis Sandbar beendet wird.</translation>
    </message>
    <message>
        <source>A&amp;gents</source>
        <translation>&amp;Agenten</translation>
    </message>
    <message>
        <source>Agents reach Sandbar through sandbarctl mcp (set it as a stdio MCP server in the agent), or over HTTP while this window runs. Both follow the agent policy of the Agents view.</source>
        <translation>Agenten erreichen Sandbar über sandbarctl mcp (im Agenten als stdio-MCP-Server eintragen) oder über HTTP, solange dieses Fenster läuft. Beide folgen der Agentenrichtlinie der Ansicht „Agenten“.</translation>
    </message>
    <message>
        <source>Serve &amp;MCP over HTTP on this computer (127.0.0.1 only)</source>
        <translation>&amp;MCP über HTTP auf diesem Computer anbieten (nur 127.0.0.1)</translation>
    </message>
    <message>
        <source>&amp;Port:</source>
        <translation>&amp;Port:</translation>
    </message>
    <message>
        <source>MCP HTTP port</source>
        <translation>MCP-HTTP-Port</translation>
    </message>
    <message>
        <source>Address:</source>
        <translation>Adresse:</translation>
    </message>
    <message>
        <source>MCP HTTP address</source>
        <translation>MCP-HTTP-Adresse</translation>
    </message>
    <message>
        <source>MCP HTTP bearer token</source>
        <translation>MCP-HTTP-Bearer-Token</translation>
    </message>
    <message>
        <source>S&amp;how</source>
        <translation>An&amp;zeigen</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>&amp;New token</source>
        <translation>&amp;Neues Token</translation>
    </message>
    <message>
        <source>Makes a new token; agents using the old one are refused from now on.</source>
        <translation>Erstellt ein neues Token; Agenten, die das alte verwenden, werden ab sofort abgewiesen.</translation>
    </message>
    <message>
        <source>Bearer &amp;token:</source>
        <translation>Bearer-T&amp;oken:</translation>
    </message>
    <message>
        <source>MCP HTTP bearer token and its buttons</source>
        <translation>MCP-HTTP-Bearer-Token und seine Schaltflächen</translation>
    </message>
    <message>
        <source>Every request must carry the header Authorization: Bearer followed by the token, and requests from web pages are refused. The token is kept in the system keychain.</source>
        <translation>Jede Anfrage muss den Header Authorization: Bearer gefolgt vom Token enthalten, und Anfragen von Webseiten werden abgelehnt. Das Token wird im Schlüsselbund des Systems aufbewahrt.</translation>
    </message>
    <message>
        <source>not serving</source>
        <translation>nicht aktiv</translation>
    </message>
    <message>
        <source>made when HTTP is first turned on</source>
        <translation>wird beim ersten Einschalten von HTTP erzeugt</translation>
    </message>
    <message>
        <source>Not serving: %1</source>
        <translation>Nicht aktiv: %1</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::ProviderCards</name>
    <message>
        <source>Excluded:</source>
        <translation>Ausgeschlossen:</translation>
    </message>
    <message>
        <source>a month</source>
        <translation>pro Monat</translation>
    </message>
    <message>
        <source> on plan %1</source>
        <translation> im Tarif %1</translation>
    </message>
    <message>
        <source>Runtime</source>
        <translation>Laufzeitumgebung</translation>
    </message>
    <message>
        <source>Isolation</source>
        <translation>Isolierung</translation>
    </message>
    <message>
        <source>Cold start</source>
        <translation>Kaltstart</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Regions</source>
        <translation>Regionen</translation>
    </message>
    <message>
        <source>Self-host / BYOC</source>
        <translation>Self-Host / BYOC</translation>
    </message>
    <message>
        <source>Persistence</source>
        <translation>Persistenz</translation>
    </message>
    <message>
        <source>Plans</source>
        <translation>Tarife</translation>
    </message>
    <message>
        <source>%1: max session</source>
        <translation>%1: max. Sitzungsdauer</translation>
    </message>
    <message>
        <source> h</source>
        <translation> h</translation>
    </message>
    <message>
        <source>%1: fee a month</source>
        <translation>%1: Gebühr pro Monat</translation>
    </message>
    <message>
        <source> USD</source>
        <translation> USD</translation>
    </message>
    <message>
        <source>%1: max vCPUs</source>
        <translation>%1: max. vCPUs</translation>
    </message>
    <message>
        <source>%1: max memory</source>
        <translation>%1: max. Speicher</translation>
    </message>
    <message>
        <source> GiB</source>
        <translation> GiB</translation>
    </message>
    <message>
        <source>Prices (USD)</source>
        <translation>Preise (USD)</translation>
    </message>
    <message>
        <source>per core-hour</source>
        <translation>pro Kernstunde</translation>
    </message>
    <message>
        <source>per vCPU-hour</source>
        <translation>pro vCPU-Stunde</translation>
    </message>
    <message>
        <source>per GiB-hour</source>
        <translation>pro GiB-Stunde</translation>
    </message>
    <message>
        <source>storage per GiB-hour</source>
        <translation>Speicherplatz pro GiB-Stunde</translation>
    </message>
    <message>
        <source>free storage</source>
        <translation>kostenloser Speicherplatz</translation>
    </message>
    <message>
        <source>per sandbox created</source>
        <translation>pro erstellter Sandbox</translation>
    </message>
    <message>
        <source>egress per GB</source>
        <translation>ausgehender Datenverkehr pro GB</translation>
    </message>
    <message>
        <source>standby per GiB-hour</source>
        <translation>Standby pro GiB-Stunde</translation>
    </message>
    <message>
        <source>free credit a month</source>
        <translation>Freiguthaben pro Monat</translation>
    </message>
    <message>
        <source>free credit once</source>
        <translation>einmaliges Freiguthaben</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>Offered</source>
        <translation>Angeboten</translation>
    </message>
    <message>
        <source>%1 per hour (CPU and memory included)</source>
        <translation>%1 pro Stunde (CPU und Speicher inklusive)</translation>
    </message>
    <message>
        <source>%1 per hour</source>
        <translation>%1 pro Stunde</translation>
    </message>
    <message>
        <source>Billing</source>
        <translation>Abrechnung</translation>
    </message>
    <message>
        <source>per %1 s</source>
        <translation>pro %1 s</translation>
    </message>
    <message>
        <source>not published</source>
        <translation>nicht veröffentlicht</translation>
    </message>
    <message>
        <source>Granularity</source>
        <translation>Granularität</translation>
    </message>
    <message>
        <source>Select two or three providers in the table (Ctrl+click) to compare them side by side.</source>
        <translation>Wählen Sie zwei oder drei Anbieter in der Tabelle aus (Strg+Klick), um sie nebeneinander zu vergleichen.</translation>
    </message>
    <message>
        <source>Showing the first %1 of the %2 selected providers.</source>
        <translation>Die ersten %1 der %2 ausgewählten Anbieter werden angezeigt.</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::SessionDetail</name>
    <message>
        <source>Session pages</source>
        <translation>Sitzungsseiten</translation>
    </message>
    <message>
        <source>Open a terminal</source>
        <translation>Terminal öffnen</translation>
    </message>
    <message>
        <source>Terminals</source>
        <translation>Terminals</translation>
    </message>
    <message>
        <source>New terminal (Ctrl+Shift+N)</source>
        <translation>Neues Terminal (Strg+Umschalt+N)</translation>
    </message>
    <message>
        <source>New terminal</source>
        <translation>Neues Terminal</translation>
    </message>
    <message>
        <source>Reopen closed</source>
        <translation>Geschlossenes wieder öffnen</translation>
    </message>
    <message>
        <source>Open again the terminal closed last (Ctrl+Shift+R)</source>
        <translation>Zuletzt geschlossenes Terminal wieder öffnen (Strg+Umschalt+R)</translation>
    </message>
    <message>
        <source>Reopen closed terminal</source>
        <translation>Geschlossenes Terminal wieder öffnen</translation>
    </message>
    <message>
        <source>Stats</source>
        <translation>Statistik</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>Dateien</translation>
    </message>
    <message>
        <source>Info</source>
        <translation>Info</translation>
    </message>
    <message>
        <source>Logs</source>
        <translation>Protokolle</translation>
    </message>
    <message>
        <source>Detach</source>
        <translation>Abdocken</translation>
    </message>
    <message>
        <source>Show this session in a window of its own (close that window to dock it back)</source>
        <translation>Diese Sitzung in einem eigenen Fenster anzeigen (Fenster schließen, um sie wieder anzudocken)</translation>
    </message>
    <message>
        <source>Detach session</source>
        <translation>Sitzung abdocken</translation>
    </message>
    <message>
        <source>Terminal name</source>
        <translation>Terminalname</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>Umbenennen…</translation>
    </message>
    <message>
        <source>Move to a new window</source>
        <translation>In ein neues Fenster verschieben</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>%1 — %2 — Sandbar</source>
        <translation>%1 — %2 — Sandbar</translation>
    </message>
    <message>
        <source>%1 runs no commands in its sandboxes: there is no terminal to open.</source>
        <translation>%1 führt in seinen Sandboxen keine Befehle aus: Es gibt kein Terminal zum Öffnen.</translation>
    </message>
    <message>
        <source>The session is not running: a terminal opens once it runs.</source>
        <translation>Die Sitzung läuft nicht: Ein Terminal öffnet sich, sobald sie läuft.</translation>
    </message>
    <message>
        <source>No terminal open yet (Ctrl+Shift+N, or double-click the session).</source>
        <translation>Noch kein Terminal geöffnet (Strg+Umschalt+N oder Doppelklick auf die Sitzung).</translation>
    </message>
    <message>
        <source>Commands</source>
        <translation>Befehle</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::SessionSettingsDialog</name>
    <message>
        <source>Settings of %1</source>
        <translation>Einstellungen von %1</translation>
    </message>
    <message>
        <source>%1 changes these on the session as it runs; nothing restarts.</source>
        <translation>%1 ändert diese an der laufenden Sitzung; nichts startet neu.</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::SessionStatsUi</name>
    <message>
        <source>Stats: %1</source>
        <translation>Statistik: %1</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::SessionTerminal</name>
    <message>
        <source>The session is paused: it keeps its memory but runs nothing.</source>
        <translation>Die Sitzung ist pausiert: Sie behält ihren Speicher, führt aber nichts aus.</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>The session is stopped. What the terminal showed stays here.</source>
        <translation>Die Sitzung ist gestoppt. Die bisherige Terminalausgabe bleibt hier erhalten.</translation>
    </message>
    <message>
        <source>The session is running again.</source>
        <translation>Die Sitzung läuft wieder.</translation>
    </message>
    <message>
        <source>Open a new shell</source>
        <translation>Neue Shell öffnen</translation>
    </message>
    <message>
        <source>The session was removed. What the terminal showed stays here.</source>
        <translation>Die Sitzung wurde entfernt. Die bisherige Terminalausgabe bleibt hier erhalten.</translation>
    </message>
    <message>
        <source>Resuming failed: %1</source>
        <translation>Fortsetzen fehlgeschlagen: %1</translation>
    </message>
    <message numerus="yes">
        <source>This session&apos;s provider cannot receive files (no file access): %n dropped item(s) not uploaded.</source>
        <translation>
            <numerusform>Der Anbieter dieser Sitzung kann keine Dateien empfangen (kein Dateizugriff): %n abgelegtes Element nicht hochgeladen.</numerusform>
            <numerusform>Der Anbieter dieser Sitzung kann keine Dateien empfangen (kein Dateizugriff): %n abgelegte Elemente nicht hochgeladen.</numerusform>
        </translation>
    </message>
    <message>
        <source>Uploading %1 to %2…</source>
        <translation>%1 wird nach %2 hochgeladen…</translation>
    </message>
    <message>
        <source>Upload of %1 failed: %2</source>
        <translation>Hochladen von %1 fehlgeschlagen: %2</translation>
    </message>
    <message numerus="yes">
        <source>The connection to the session was lost (%1). Reconnecting in %n s…</source>
        <translation>
            <numerusform>Die Verbindung zur Sitzung ist abgebrochen (%1). Neue Verbindung in %n s…</numerusform>
            <numerusform>Die Verbindung zur Sitzung ist abgebrochen (%1). Neue Verbindung in %n s…</numerusform>
        </translation>
    </message>
    <message>
        <source>Reconnect now</source>
        <translation>Jetzt neu verbinden</translation>
    </message>
    <message>
        <source>reconnected: a new shell; what the old one wrote while disconnected is lost</source>
        <translation>neu verbunden: eine neue Shell; was die alte während der Trennung schrieb, ist verloren</translation>
    </message>
    <message>
        <source>reconnected; what was written while disconnected may be missing</source>
        <translation>neu verbunden; was während der Trennung geschrieben wurde, kann fehlen</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::SessionsModel</name>
    <message>
        <source>Orphan: made by an account (%1) that this Sandbar does not have</source>
        <translation>Verwaist: von einem Konto (%1) erstellt, das in diesem Sandbar nicht vorhanden ist</translation>
    </message>
    <message>
        <source>%1 (orphan)</source>
        <translation>%1 (verwaist)</translation>
    </message>
    <message>
        <source>$0 · self-hosted</source>
        <translation>$0 · selbst gehostet</translation>
    </message>
    <message>
        <source>%1 · $%2/h</source>
        <translation>%1 · $%2/h</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>abgelaufen</translation>
    </message>
    <message>
        <source>&lt; 1 min</source>
        <translation>&lt; 1 min</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 d %2 h</translation>
    </message>
    <message>
        <source>Billed for %1 minutes so far</source>
        <translation>Bisher %1 Minuten abgerechnet</translation>
    </message>
    <message>
        <source>Expires %1</source>
        <translation>Ablauf: %1</translation>
    </message>
    <message>
        <source>%1 CPU</source>
        <translation>%1 CPU</translation>
    </message>
    <message>
        <source>all</source>
        <translation>alle</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Account</source>
        <translation>Konto</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>Image</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Uptime</source>
        <translation>Laufzeit</translation>
    </message>
    <message>
        <source>TTL left</source>
        <translation>TTL verbleibend</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>Kosten</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>Sitzung</translation>
    </message>
    <message>
        <source>Account %1 cannot be reached (%2). Last seen: %3.</source>
        <translation>Konto %1 ist nicht erreichbar (%2). Zuletzt gesehen: %3.</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>nicht erreichbar</translation>
    </message>
    <message>
        <source>Created by the agent %1 (through Sandbar&apos;s MCP server)</source>
        <translation>Vom Agenten %1 erstellt (über den MCP-Server von Sandbar)</translation>
    </message>
    <message>
        <source>%1 (asleep)</source>
        <translation>%1 (schläft)</translation>
    </message>
    <message>
        <source>Labels</source>
        <translation>Labels</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::SessionsPane</name>
    <message>
        <source>Filter sessions</source>
        <translation>Sitzungen filtern</translation>
    </message>
    <message>
        <source>Filter sessions — name, image, state:running, account:…</source>
        <translation>Sitzungen filtern — Name, Image, state:running, account:…</translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation>Sitzungen</translation>
    </message>
    <message>
        <source>%1 sessions</source>
        <translation>%1 Sitzungen</translation>
    </message>
    <message>
        <source>Shown when a session has GPUs</source>
        <translation>Wird angezeigt, wenn eine Sitzung GPUs hat</translation>
    </message>
    <message>
        <source>%1: 1 session done; these were not:</source>
        <translation>%1: 1 Sitzung erledigt; diese nicht:</translation>
    </message>
    <message>
        <source>%1: %2 sessions done; these were not:</source>
        <translation>%1: %2 Sitzungen erledigt; diese nicht:</translation>
    </message>
    <message>
        <source>Words must all match. state:, account:, provider: and image: match that field exactly; label:KEY or label:KEY=VALUE a label. Escape clears.</source>
        <translation>Alle Wörter müssen passen. state:, account:, provider: und image: vergleichen dieses Feld genau; label:KEY oder label:KEY=VALUE ein Label. Escape leert das Feld.</translation>
    </message>
    <message>
        <source>Shown when a session has labels of yours</source>
        <translation>Sichtbar, wenn eine Sitzung Labels von Ihnen trägt</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Search actions or keys</source>
        <translation>Aktionen oder Tasten suchen</translation>
    </message>
    <message>
        <source>&amp;Search:</source>
        <translation>&amp;Suchen:</translation>
    </message>
    <message>
        <source>Search shortcuts</source>
        <translation>Tastenkürzel durchsuchen</translation>
    </message>
    <message>
        <source>Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>, </source>
        <translation>, </translation>
    </message>
</context>
<context>
    <name>sandbar::ui::SnapshotsView</name>
    <message>
        <source>Snapshots</source>
        <translation>Snapshots</translation>
    </message>
    <message>
        <source>A snapshot keeps the session&apos;s files as they are now; restoring one ends what runs in the session and puts the files back.</source>
        <translation>Ein Snapshot hält die Dateien der Sitzung fest, wie sie jetzt sind; beim Wiederherstellen endet, was in der Sitzung läuft, und die Dateien kommen zurück.</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Saved</source>
        <translation>Gespeichert</translation>
    </message>
    <message>
        <source>Comment</source>
        <translation>Kommentar</translation>
    </message>
    <message>
        <source>Comment (optional)</source>
        <translation>Kommentar (optional)</translation>
    </message>
    <message>
        <source>Snapshot comment</source>
        <translation>Kommentar zum Snapshot</translation>
    </message>
    <message>
        <source>Save snapshot</source>
        <translation>Snapshot speichern</translation>
    </message>
    <message>
        <source>Restore…</source>
        <translation>Wiederherstellen …</translation>
    </message>
    <message>
        <source>The snapshots could not be listed: %1</source>
        <translation>Die Snapshots ließen sich nicht auflisten: %1</translation>
    </message>
    <message>
        <source>No snapshots yet.</source>
        <translation>Noch keine Snapshots.</translation>
    </message>
    <message>
        <source>Saving a snapshot…</source>
        <translation>Ein Snapshot wird gespeichert …</translation>
    </message>
    <message>
        <source>Snapshot %1 saved.</source>
        <translation>Snapshot %1 gespeichert.</translation>
    </message>
    <message>
        <source>The snapshot failed: %1</source>
        <translation>Der Snapshot ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Restore snapshot</source>
        <translation>Snapshot wiederherstellen</translation>
    </message>
    <message>
        <source>Restore snapshot %1? What runs in the session ends, and files changed since the snapshot are lost.</source>
        <translation>Snapshot %1 wiederherstellen? Was in der Sitzung läuft, endet, und seit dem Snapshot geänderte Dateien gehen verloren.</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>Wiederherstellen</translation>
    </message>
    <message>
        <source>Restoring snapshot %1…</source>
        <translation>Snapshot %1 wird wiederhergestellt …</translation>
    </message>
    <message>
        <source>Restored to snapshot %1.</source>
        <translation>Auf Snapshot %1 zurückgesetzt.</translation>
    </message>
    <message>
        <source>Restoring failed: %1</source>
        <translation>Wiederherstellen fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Details</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::SparklineDelegate</name>
    <message numerus="yes">
        <source>Sampling failed: %1 (retrying in %n s)</source>
        <translation>
            <numerusform>Abfrage fehlgeschlagen: %1 (neuer Versuch in %n s)</numerusform>
            <numerusform>Abfrage fehlgeschlagen: %1 (neuer Versuch in %n s)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Out-of-memory kill at %1 (%n in this history)</source>
        <translation>
            <numerusform>Beendet wegen Speichermangel um %1 (%n in diesem Verlauf)</numerusform>
            <numerusform>Beendet wegen Speichermangel um %1 (%n in diesem Verlauf)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sandbar::ui::StatsChart</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>No samples yet</source>
        <translation>Noch keine Messwerte</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>min %1 · max %2</source>
        <translation>min %1 · max %2</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::StatsView</name>
    <message>
        <source>1 m</source>
        <translation>1 min</translation>
    </message>
    <message>
        <source>5 m</source>
        <translation>5 min</translation>
    </message>
    <message>
        <source>1 h</source>
        <translation>1 h</translation>
    </message>
    <message>
        <source>Show the last %1</source>
        <translation>Die letzten %1 anzeigen</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>100 % = one core</source>
        <translation>100 % = ein Kern</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>Used</source>
        <translation>Belegt</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>Netzwerk</translation>
    </message>
    <message>
        <source>Receive</source>
        <translation>Empfangen</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Senden</translation>
    </message>
    <message>
        <source>Disk I/O</source>
        <translation>Datenträger-E/A</translation>
    </message>
    <message>
        <source>Read</source>
        <translation>Lesen</translation>
    </message>
    <message>
        <source>Write</source>
        <translation>Schreiben</translation>
    </message>
    <message>
        <source>Filesystem</source>
        <translation>Dateisystem</translation>
    </message>
    <message>
        <source>The session&apos;s writable storage</source>
        <translation>Der beschreibbare Speicherplatz der Sitzung</translation>
    </message>
    <message>
        <source>Not provided by this provider</source>
        <translation>Von diesem Anbieter nicht bereitgestellt</translation>
    </message>
    <message>
        <source>Not provided by %1</source>
        <translation>Von %1 nicht bereitgestellt</translation>
    </message>
    <message>
        <source>Waiting for the first sample…</source>
        <translation>Warten auf den ersten Messwert…</translation>
    </message>
    <message>
        <source>No session selected</source>
        <translation>Keine Sitzung ausgewählt</translation>
    </message>
    <message>
        <source>No samples of this figure yet</source>
        <translation>Noch keine Messwerte für diese Größe</translation>
    </message>
    <message>
        <source>Network off: this session has no network access</source>
        <translation>Netzwerk aus: Diese Sitzung hat keinen Netzwerkzugang</translation>
    </message>
    <message>
        <source>Limit (%1 CPUs)</source>
        <translation>Limit (%1 CPUs)</translation>
    </message>
    <message>
        <source>Limit</source>
        <translation>Limit</translation>
    </message>
    <message>
        <source>Out-of-memory kill</source>
        <translation>Beendet wegen Speichermangel</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>Gesamt</translation>
    </message>
    <message>
        <source>%1 MIG %2</source>
        <translation>%1 MIG %2</translation>
    </message>
    <message>
        <source>GPU %1 utilisation (whole device)</source>
        <translation>GPU-%1-Auslastung (gesamtes Gerät)</translation>
    </message>
    <message>
        <source>Utilisation</source>
        <translation>Auslastung</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>%1 · all processes on the device</source>
        <translation>%1 · alle Prozesse auf dem Gerät</translation>
    </message>
    <message>
        <source>GPU %1 memory used by this session</source>
        <translation>Von dieser Sitzung belegter Speicher auf GPU %1</translation>
    </message>
    <message>
        <source>%1 · this session&apos;s processes</source>
        <translation>%1 · Prozesse dieser Sitzung</translation>
    </message>
    <message>
        <source>This session</source>
        <translation>Diese Sitzung</translation>
    </message>
    <message>
        <source>GPU %1 memory (whole device)</source>
        <translation>GPU-%1-Speicher (gesamtes Gerät)</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>Device total</source>
        <translation>Gerät gesamt</translation>
    </message>
    <message>
        <source>Not reported for a MIG device</source>
        <translation>Für ein MIG-Gerät nicht gemeldet</translation>
    </message>
    <message>
        <source>Not sampling</source>
        <translation>Keine Abfrage</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>Abfrage läuft</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>Live</translation>
    </message>
    <message>
        <source>Session stopped; showing its last samples</source>
        <translation>Sitzung gestoppt; ihre letzten Messwerte werden angezeigt</translation>
    </message>
    <message>
        <source>unknown error</source>
        <translation>unbekannter Fehler</translation>
    </message>
    <message>
        <source>Sampling failed: %1 — retrying in %2 s</source>
        <translation>Abfrage fehlgeschlagen: %1 — neuer Versuch in %2 s</translation>
    </message>
    <message>
        <source>Sampling failed: %1</source>
        <translation>Abfrage fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>last sample %1</source>
        <translation>letzter Messwert %1</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::StopAll</name>
    <message>
        <source>No session was running.</source>
        <translation>Es lief keine Sitzung.</translation>
    </message>
    <message numerus="yes">
        <source>Stopped %n session(s).</source>
        <translation>
            <numerusform>%n Sitzung gestoppt.</numerusform>
            <numerusform>%n Sitzungen gestoppt.</numerusform>
        </translation>
    </message>
    <message>
        <source>Stopped %1 of %2 sessions; %3</source>
        <translation>%1 von %2 Sitzungen gestoppt; %3</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::TransferPanel</name>
    <message>
        <source>Cancel all</source>
        <translation>Alle abbrechen</translation>
    </message>
    <message>
        <source>Clear finished</source>
        <translation>Abgeschlossene entfernen</translation>
    </message>
    <message>
        <source>Transfers</source>
        <translation>Übertragungen</translation>
    </message>
    <message>
        <source>Overall transfer progress</source>
        <translation>Gesamtfortschritt der Übertragungen</translation>
    </message>
    <message>
        <source>Transfer speed and time left</source>
        <translation>Übertragungsgeschwindigkeit und verbleibende Zeit</translation>
    </message>
    <message>
        <source>Cancel all transfers</source>
        <translation>Alle Übertragungen abbrechen</translation>
    </message>
    <message>
        <source>Clear finished transfers</source>
        <translation>Abgeschlossene Übertragungen entfernen</translation>
    </message>
    <message>
        <source>%1 MiB/s</source>
        <translation>%1 MiB/s</translation>
    </message>
    <message>
        <source>%1 left</source>
        <translation>noch %1</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Progress of %1</source>
        <translation>Fortschritt von %1</translation>
    </message>
    <message>
        <source>Cancel %1</source>
        <translation>%1 abbrechen</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Name exists: waiting for your answer</source>
        <translation>Name existiert: Warten auf Ihre Antwort</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Fertig</translation>
    </message>
    <message>
        <source>Done as %1</source>
        <translation>Fertig als %1</translation>
    </message>
    <message>
        <source>Status of %1</source>
        <translation>Status von %1</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>Abgeschlossen</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::TransferQueue</name>
    <message>
        <source>The session&apos;s account is gone</source>
        <translation>Das Konto der Sitzung ist nicht mehr vorhanden</translation>
    </message>
    <message>
        <source>%1 does not exist</source>
        <translation>%1 existiert nicht</translation>
    </message>
    <message>
        <source>No free name for %1</source>
        <translation>Kein freier Name für %1</translation>
    </message>
    <message>
        <source>This session cannot copy files</source>
        <translation>Diese Sitzung kann keine Dateien kopieren</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::TrayIcon</name>
    <message>
        <source>Sandbar tray menu</source>
        <translation>Sandbar-Menü im Infobereich</translation>
    </message>
    <message>
        <source>Show Sandbar</source>
        <translation>Sandbar anzeigen</translation>
    </message>
    <message>
        <source>Stop all sessions…</source>
        <translation>Alle Sitzungen stoppen…</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Beenden</translation>
    </message>
    <message>
        <source>Sandbar — %1</source>
        <translation>Sandbar — %1</translation>
    </message>
    <message>
        <source>Stop all sessions</source>
        <translation>Alle Sitzungen stoppen</translation>
    </message>
    <message numerus="yes">
        <source>Stop %n running session(s) in every account?</source>
        <translation>
            <numerusform>%n laufende Sitzung in allen Konten stoppen?</numerusform>
            <numerusform>%n laufende Sitzungen in allen Konten stoppen?</numerusform>
        </translation>
    </message>
    <message>
        <source>Stop All</source>
        <translation>Alle stoppen</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::WorkloadForm</name>
    <message>
        <source> GiB</source>
        <translation> GiB</translation>
    </message>
    <message>
        <source> h</source>
        <translation> h</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source>from sessions</source>
        <translation>aus Sitzungen</translation>
    </message>
    <message>
        <source>Length of one session; when 0, the running hours divided by sessions a month</source>
        <translation>Dauer einer Sitzung; bei 0 die Laufstunden geteilt durch die Sitzungen pro Monat</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>× </source>
        <translation>× </translation>
    </message>
    <message>
        <source>Hours a month the sandbox exists while nobody uses it</source>
        <translation>Stunden pro Monat, in denen die Sandbox existiert, ohne genutzt zu werden</translation>
    </message>
    <message>
        <source> GB</source>
        <translation> GB</translation>
    </message>
    <message>
        <source>Apply free credit</source>
        <translation>Freiguthaben anrechnen</translation>
    </message>
    <message>
        <source>vCPUs</source>
        <translation>vCPUs</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>Running / month</source>
        <translation>Laufzeit / Monat</translation>
    </message>
    <message>
        <source>CPU busy</source>
        <translation>CPU-Auslastung</translation>
    </message>
    <message>
        <source>Session length</source>
        <translation>Sitzungsdauer</translation>
    </message>
    <message>
        <source>Sessions / month</source>
        <translation>Sitzungen / Monat</translation>
    </message>
    <message>
        <source>Idle / month</source>
        <translation>Leerlauf / Monat</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>Speicherplatz</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Egress / month</source>
        <translation>Ausgehender Verkehr / Monat</translation>
    </message>
    <message>
        <source>GPU count</source>
        <translation>Anzahl GPUs</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::compare</name>
    <message>
        <source>%1 $%2/h</source>
        <translation>%1 $%2/h</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
</context>
<context>
    <name>sandbar::ui::units</name>
    <message>
        <source>%</source>
        <translation>%</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>KiB</source>
        <translation>KiB</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>TiB</source>
        <translation>TiB</translation>
    </message>
    <message>
        <source>B/s</source>
        <translation>B/s</translation>
    </message>
    <message>
        <source>KiB/s</source>
        <translation>KiB/s</translation>
    </message>
    <message>
        <source>MiB/s</source>
        <translation>MiB/s</translation>
    </message>
    <message>
        <source>GiB/s</source>
        <translation>GiB/s</translation>
    </message>
    <message>
        <source>TiB/s</source>
        <translation>TiB/s</translation>
    </message>
</context>
<context>
    <name>sandbar::vercel</name>
    <message>
        <source>A Vercel access token (Account Settings, Tokens); kept in the system keychain</source>
        <translation>Ein Vercel-Zugriffstoken (Account Settings, Tokens); wird im Schlüsselbund des Systems aufbewahrt</translation>
    </message>
    <message>
        <source>Vercel&apos;s API</source>
        <translation>Die API von Vercel</translation>
    </message>
    <message>
        <source>Account &apos;%1&apos; holds a short-lived OIDC token; create an access token in Vercel&apos;s Account Settings, Tokens, and give that instead</source>
        <translation>Konto &apos;%1&apos; enthält ein kurzlebiges OIDC-Token; erstellen Sie in Vercels Account Settings unter Tokens ein Zugriffstoken und geben Sie dieses an</translation>
    </message>
    <message>
        <source>Account &apos;%1&apos; needs its Vercel team ID and project ID</source>
        <translation>Konto &apos;%1&apos; braucht seine Vercel-Team-ID und Projekt-ID</translation>
    </message>
    <message>
        <source>Vercel Sandbox</source>
        <translation>Vercel Sandbox</translation>
    </message>
    <message>
        <source>Firecracker microVM sandboxes on Vercel, billed for active CPU and provisioned memory.</source>
        <translation>Firecracker-microVM-Sandboxes bei Vercel, abgerechnet nach aktiver CPU-Zeit und bereitgestelltem Speicher.</translation>
    </message>
    <message>
        <source>Team ID</source>
        <translation>Team-ID</translation>
    </message>
    <message>
        <source>The Vercel team the sandboxes belong to (team_…)</source>
        <translation>Das Vercel-Team, dem die Sandboxes gehören (team_…)</translation>
    </message>
    <message>
        <source>Project ID</source>
        <translation>Projekt-ID</translation>
    </message>
    <message>
        <source>The Vercel project the sandboxes belong to (prj_…)</source>
        <translation>Das Vercel-Projekt, zu dem die Sandboxes gehören (prj_…)</translation>
    </message>
    <message>
        <source>Plan&apos;s longest session</source>
        <translation>Längste Sitzung des Tarifs</translation>
    </message>
    <message>
        <source>What the team&apos;s plan allows: 45 minutes on Hobby, 5 hours on Pro and Enterprise; longer time limits are shortened</source>
        <translation>Was der Tarif des Teams erlaubt: 45 Minuten bei Hobby, 5 Stunden bei Pro und Enterprise; längere Zeitlimits werden gekürzt</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>Image</translation>
    </message>
    <message>
        <source>The image the sandbox starts from; empty: Vercel&apos;s default (Amazon Linux with Node and Python)</source>
        <translation>Das Image, mit dem die Sandbox startet; leer: Vercels Standard (Amazon Linux mit Node und Python)</translation>
    </message>
    <message>
        <source>Runtime</source>
        <translation>Laufzeit</translation>
    </message>
    <message>
        <source>Instead of an image: node22, node24 or python3.13</source>
        <translation>Statt eines Images: node22, node24 oder python3.13</translation>
    </message>
    <message>
        <source>vCPUs</source>
        <translation>vCPUs</translation>
    </message>
    <message>
        <source>Virtual CPUs, each with 2 GB of memory</source>
        <translation>Virtuelle CPUs mit je 2 GB Speicher</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>What the sandbox starts with: a git URL, a .tar.gz URL or a snapshot ID (snap_…)</source>
        <translation>Womit die Sandbox beginnt: eine Git-URL, eine .tar.gz-URL oder eine Snapshot-ID (snap_…)</translation>
    </message>
    <message>
        <source>Persistent</source>
        <translation>Dauerhaft</translation>
    </message>
    <message>
        <source>Keep the files when the sandbox stops (a snapshot, billed as storage); Resume brings them back</source>
        <translation>Die Dateien beim Stoppen behalten (ein Snapshot, als Speicher abgerechnet); Fortsetzen holt sie zurück</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>Umgebung</translation>
    </message>
    <message>
        <source>KEY=VALUE, one a line</source>
        <translation>SCHLÜSSEL=WERT, einer pro Zeile</translation>
    </message>
    <message>
        <source>Internet access</source>
        <translation>Internetzugang</translation>
    </message>
    <message>
        <source>Let the sandbox reach the internet (off: Vercel&apos;s deny-all network policy)</source>
        <translation>Der Sandbox Zugang zum Internet geben (aus: Vercels Netzwerkrichtlinie deny-all)</translation>
    </message>
    <message>
        <source>Time limit</source>
        <translation>Zeitlimit</translation>
    </message>
    <message>
        <source>The account was closed</source>
        <translation>Das Konto wurde geschlossen</translation>
    </message>
    <message>
        <source>sandbox</source>
        <translation>Sandbox</translation>
    </message>
    <message>
        <source>it names no sandbox</source>
        <translation>sie nennt keine Sandbox</translation>
    </message>
    <message>
        <source>sandbox list</source>
        <translation>Sandbox-Liste</translation>
    </message>
    <message>
        <source>it has no sandboxes</source>
        <translation>sie enthält keine Sandboxes</translation>
    </message>
    <message>
        <source>command output</source>
        <translation>Befehlsausgabe</translation>
    </message>
    <message>
        <source>a line is not a JSON object</source>
        <translation>eine Zeile ist kein JSON-Objekt</translation>
    </message>
    <message>
        <source>a command has no id</source>
        <translation>ein Befehl hat keine ID</translation>
    </message>
    <message>
        <source>a line is neither a command nor output</source>
        <translation>eine Zeile ist weder ein Befehl noch eine Ausgabe</translation>
    </message>
    <message>
        <source>terminal address</source>
        <translation>Terminaladresse</translation>
    </message>
    <message>
        <source>it has no URL or no token</source>
        <translation>sie hat keine URL oder kein Token</translation>
    </message>
    <message>
        <source>saved at a stop</source>
        <translation>beim Stoppen gesichert</translation>
    </message>
    <message>
        <source>taken on request</source>
        <translation>auf Anforderung erstellt</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>kept until %1</source>
        <translation>aufbewahrt bis %1</translation>
    </message>
    <message>
        <source>snapshot list</source>
        <translation>Snapshot-Liste</translation>
    </message>
    <message>
        <source>it has no snapshots</source>
        <translation>sie enthält keine Snapshots</translation>
    </message>
    <message>
        <source>snapshot</source>
        <translation>Snapshot</translation>
    </message>
    <message>
        <source>it names no snapshot</source>
        <translation>sie nennt keinen Snapshot</translation>
    </message>
    <message>
        <source>the snapshot is %1</source>
        <translation>der Snapshot ist %1</translation>
    </message>
    <message>
        <source>Vercel ends the sandbox after this long (capped by the plan). 0: Vercel&apos;s five minutes, lengthened while a terminal is attached, as Vercel&apos;s CLI does</source>
        <translation>Vercel beendet die Sandbox nach dieser Zeit (durch den Tarif begrenzt). 0: Vercels fünf Minuten, verlängert, solange ein Terminal verbunden ist, wie es Vercels CLI tut</translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation>%1 KiB</translation>
    </message>
    <message>
        <source>command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>it names no command</source>
        <translation>sie nennt keinen Befehl</translation>
    </message>
    <message>
        <source>Vercel ended the command&apos;s output: %1</source>
        <translation>Vercel hat die Ausgabe des Befehls beendet: %1</translation>
    </message>
</context>
<context>
    <name>sandbar::vercel::VercelExecJob</name>
    <message>
        <source>No command to run</source>
        <translation>Kein Befehl zum Ausführen</translation>
    </message>
    <message>
        <source>Vercel ended the command: %1</source>
        <translation>Vercel hat den Befehl beendet: %1</translation>
    </message>
    <message>
        <source>Vercel sent a command output line of over 8 MiB</source>
        <translation>Vercel hat eine Ausgabezeile von über 8 MiB gesendet</translation>
    </message>
    <message>
        <source>Vercel&apos;s command output ended in the middle of a line</source>
        <translation>Vercels Befehlsausgabe endete mitten in einer Zeile</translation>
    </message>
    <message>
        <source>Vercel closed the command&apos;s output before the command ended</source>
        <translation>Vercel hat die Ausgabe des Befehls geschlossen, bevor der Befehl endete</translation>
    </message>
    <message>
        <source>The command was cancelled</source>
        <translation>Der Befehl wurde abgebrochen</translation>
    </message>
    <message>
        <source>Could not keep the command&apos;s input in a file: %1</source>
        <translation>Die Eingabe des Befehls ließ sich nicht in einer Datei ablegen: %1</translation>
    </message>
    <message>
        <source>Could not hand the command its input: %1</source>
        <translation>Die Eingabe ließ sich dem Befehl nicht übergeben: %1</translation>
    </message>
</context>
<context>
    <name>sandbar::vercel::VercelProvider</name>
    <message>
        <source>Vercel Sandbox</source>
        <translation>Vercel Sandbox</translation>
    </message>
    <message>
        <source>The time limit and CPUs must be positive</source>
        <translation>Zeitlimit und CPUs müssen positiv sein</translation>
    </message>
    <message>
        <source>Creating the sandbox…</source>
        <translation>Sandbox wird erstellt…</translation>
    </message>
    <message>
        <source>Vercel could not start the sandbox (it is %1)</source>
        <translation>Vercel konnte die Sandbox nicht starten (sie ist %1)</translation>
    </message>
    <message>
        <source>The sandbox did not start in time (it is %1)</source>
        <translation>Die Sandbox ist nicht rechtzeitig gestartet (sie ist %1)</translation>
    </message>
    <message>
        <source>Starting the sandbox…</source>
        <translation>Sandbox wird gestartet…</translation>
    </message>
    <message>
        <source>The sandbox %1 is not running (it is %2)</source>
        <translation>Die Sandbox %1 läuft nicht (sie ist %2)</translation>
    </message>
    <message>
        <source>The account was closed</source>
        <translation>Das Konto wurde geschlossen</translation>
    </message>
    <message>
        <source>Stopping failed: %1</source>
        <translation>Stoppen fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Only a persistent sandbox keeps its files when stopped; %1 is not persistent</source>
        <translation>Nur eine dauerhafte Sandbox behält beim Stoppen ihre Dateien; %1 ist nicht dauerhaft</translation>
    </message>
    <message>
        <source>Resuming failed: %1</source>
        <translation>Fortsetzen fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Removing failed: %1</source>
        <translation>Entfernen fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Vercel sandboxes always end: give a time limit of at least one second</source>
        <translation>Vercel-Sandboxes enden immer: geben Sie ein Zeitlimit von mindestens einer Sekunde an</translation>
    </message>
    <message>
        <source>Vercel did not extend the sandbox: %1</source>
        <translation>Vercel hat die Sandbox nicht verlängert: %1</translation>
    </message>
    <message>
        <source>Vercel closed the terminal (%1%2)</source>
        <translation>Vercel hat das Terminal geschlossen (%1%2)</translation>
    </message>
    <message>
        <source>The sandbox %1 has stopped (%2)</source>
        <translation>Die Sandbox %1 ist gestoppt (%2)</translation>
    </message>
    <message>
        <source>Vercel keeps five tags on a sandbox and Sandbar uses %1: give at most %2 labels</source>
        <translation>Vercel behält fünf Tags pro Sandbox und Sandbar nutzt %1: geben Sie höchstens %2 Labels an</translation>
    </message>
    <message>
        <source>Vercel keeps no comment with a snapshot: leave the comment empty</source>
        <translation>Vercel speichert zu einem Snapshot keinen Kommentar: lassen Sie den Kommentar leer</translation>
    </message>
    <message>
        <source>Saving a snapshot (Vercel stops the sandbox to save it)…</source>
        <translation>Snapshot wird gesichert (Vercel stoppt die Sandbox dafür)…</translation>
    </message>
    <message>
        <source>The snapshot failed: %1</source>
        <translation>Der Snapshot ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>The sandbox %1 did not finish stopping in time (it is %2)</source>
        <translation>Die Sandbox %1 wurde nicht rechtzeitig fertig gestoppt (sie ist %2)</translation>
    </message>
    <message>
        <source>Restoring failed: %1</source>
        <translation>Wiederherstellen fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Starting the sandbox from snapshot %1…</source>
        <translation>Sandbox wird aus Snapshot %1 gestartet…</translation>
    </message>
    <message>
        <source>only a persistent sandbox goes back to a snapshot; create a new sandbox with the snapshot&apos;s ID as its source instead</source>
        <translation>nur eine dauerhafte Sandbox kann zu einem Snapshot zurückkehren; erstellen Sie stattdessen eine neue Sandbox mit der ID des Snapshots als Quelle</translation>
    </message>
    <message>
        <source>Stopping the sandbox (what runs in it ends)…</source>
        <translation>Sandbox wird gestoppt (was darin läuft, endet)…</translation>
    </message>
    <message>
        <source>Forking failed: %1</source>
        <translation>Abzweigen fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Forking %1…</source>
        <translation>%1 wird abgezweigt…</translation>
    </message>
    <message>
        <source>No command to run</source>
        <translation>Kein Befehl zum Ausführen</translation>
    </message>
    <message>
        <source>A command left running takes no input</source>
        <translation>Ein weiterlaufender Befehl nimmt keine Eingabe</translation>
    </message>
    <message>
        <source>Starting the command failed: %1</source>
        <translation>Der Befehl konnte nicht gestartet werden: %1</translation>
    </message>
    <message>
        <source>%1 is not a signal number</source>
        <translation>%1 ist keine Signalnummer</translation>
    </message>
    <message>
        <source>Signalling the command failed: %1</source>
        <translation>Das Signal an den Befehl schlug fehl: %1</translation>
    </message>
    <message>
        <source>Vercel copies the files as they are now.</source>
        <translation>Vercel kopiert die Dateien so, wie sie jetzt sind.</translation>
    </message>
    <message>
        <source>its latest snapshot, taken %1</source>
        <translation>seines letzten Snapshots vom %1</translation>
    </message>
    <message>
        <source>its latest snapshot, %1</source>
        <translation>seines letzten Snapshots, %1</translation>
    </message>
    <message>
        <source>Vercel copies the files of %1: what changed since is not in the copy (take a snapshot first to copy them as they are now).</source>
        <translation>Vercel kopiert die Dateien %1: was sich seitdem geändert hat, fehlt in der Kopie (machen Sie zuerst einen Snapshot, um sie so zu kopieren, wie sie jetzt sind).</translation>
    </message>
</context>
<context>
    <name>sandbar::vercel::VercelUploadJob</name>
    <message>
        <source>The upload was cancelled</source>
        <translation>Das Hochladen wurde abgebrochen</translation>
    </message>
</context>
<context>
    <name>sandbarctl</name>
    <message>
        <source>unexpected &apos;--&apos;</source>
        <translation>unerwartetes &apos;--&apos;</translation>
    </message>
    <message>
        <source>%1 needs a value</source>
        <translation>%1 benötigt einen Wert</translation>
    </message>
    <message>
        <source>unknown option %1</source>
        <translation>unbekannte Option %1</translation>
    </message>
    <message>
        <source>Try &apos;sandbarctl help&apos;.</source>
        <translation>Versuchen Sie &apos;sandbarctl help&apos;.</translation>
    </message>
    <message>
        <source>%1 ago</source>
        <translation>vor %1</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>in %1</translation>
    </message>
    <message>
        <source>--config-dir needs a directory</source>
        <translation>--config-dir benötigt ein Verzeichnis</translation>
    </message>
    <message>
        <source>Global options (before or after the command):</source>
        <translation>Globale Optionen (vor oder nach dem Befehl):</translation>
    </message>
    <message>
        <source>machine-readable output</source>
        <translation>maschinenlesbare Ausgabe</translation>
    </message>
    <message>
        <source>keep every file Sandbar writes under DIR</source>
        <translation>alle Dateien, die Sandbar schreibt, unter DIR ablegen</translation>
    </message>
    <message>
        <source>Commands:</source>
        <translation>Befehle:</translation>
    </message>
    <message>
        <source>Only the sessions of account NAME.</source>
        <translation>Nur die Sitzungen des Kontos NAME.</translation>
    </message>
    <message>
        <source>List the accounts, their providers and settings.</source>
        <translation>Die Konten mit ihren Anbietern und Einstellungen auflisten.</translation>
    </message>
    <message>
        <source>Secrets are never printed: a setting kept in the keychain shows as (keychain). With --json, each account is an object with its name, provider, settings, the keys of its secrets and when it was added.</source>
        <translation>Geheimnisse werden nie ausgegeben: eine Einstellung im Schlüsselbund erscheint als (keychain). Mit --json ist jedes Konto ein Objekt mit Name, Anbieter, Einstellungen, den Schlüsseln seiner Geheimnisse und dem Zeitpunkt, zu dem es angelegt wurde.</translation>
    </message>
    <message>
        <source>Add an account of a provider.</source>
        <translation>Ein Konto bei einem Anbieter hinzufügen.</translation>
    </message>
    <message>
        <source>The other options are the account fields of the provider (see PROVIDERS): --FIELD VALUE for a setting, a flag for a yes/no field. A secret such as an API key is never taken from the command line, where other users could see it: --FIELD-env VARIABLE names the environment variable that holds it, and it is kept in the system keychain.</source>
        <translation>Die weiteren Optionen sind die Kontofelder des Anbieters (siehe PROVIDERS): --FIELD VALUE für eine Einstellung, ein Schalter für ein Ja/Nein-Feld. Ein Geheimnis wie ein API-Schlüssel wird nie von der Befehlszeile genommen, wo andere Benutzer es sehen könnten: --FIELD-env VARIABLE nennt die Umgebungsvariable, die es enthält, und es wird im Schlüsselbund des Systems abgelegt.</translation>
    </message>
    <message>
        <source>The provider of the account, by its id (see PROVIDERS).</source>
        <translation>Der Anbieter des Kontos, nach seiner ID (siehe PROVIDERS).</translation>
    </message>
    <message>
        <source>Add a Docker engine reached over its socket.</source>
        <translation>Eine Docker-Engine hinzufügen, die über ihren Socket erreichbar ist.</translation>
    </message>
    <message>
        <source>Add an E2B account whose API key is in $E2B_API_KEY.</source>
        <translation>Ein E2B-Konto hinzufügen, dessen API-Schlüssel in $E2B_API_KEY steht.</translation>
    </message>
    <message>
        <source>Remove an account and its secrets.</source>
        <translation>Ein Konto und seine Geheimnisse entfernen.</translation>
    </message>
    <message>
        <source>Check that an account&apos;s engine or service answers.</source>
        <translation>Prüfen, ob die Engine oder der Dienst eines Kontos antwortet.</translation>
    </message>
    <message>
        <source>Prints the server, its version and API version, and any warnings; exits 1 when it cannot be reached.</source>
        <translation>Gibt den Server, seine Version und API-Version sowie etwaige Warnungen aus; endet mit 1, wenn er nicht erreichbar ist.</translation>
    </message>
    <message>
        <source>List the sessions with their REF, name, state and time limit.</source>
        <translation>Die Sitzungen mit REF, Name, Zustand und Zeitlimit auflisten.</translation>
    </message>
    <message>
        <source>Asks each account&apos;s engine or service; the exit status is 1 when one could not be reached, after listing what could.</source>
        <translation>Fragt die Engine oder den Dienst jedes Kontos; ist einer nicht erreichbar, wird aufgelistet, was erreichbar war, und der Exit-Status ist 1.</translation>
    </message>
    <message>
        <source>Also list what the engines run that Sandbar did not create (see sessions adopt).</source>
        <translation>Auch auflisten, was die Engines ausführen, ohne dass Sandbar es erstellt hat (siehe sessions adopt).</translation>
    </message>
    <message>
        <source>Create a session and print its REF.</source>
        <translation>Eine Sitzung erstellen und ihre REF ausgeben.</translation>
    </message>
    <message>
        <source>Besides the options below, it takes each create option of the account&apos;s provider as --OPTION VALUE (see PROVIDERS), e.g. --memory 2G --pidsLimit 256 --readOnlyMounts; a yes/no option is a flag that also takes --OPTION=no. Without --ttl a session ends after an hour; --ttl 0 means no limit, and a warning says so.</source>
        <translation>Neben den folgenden Optionen akzeptiert der Befehl jede Erstellungsoption des Anbieters des Kontos als --OPTION VALUE (siehe PROVIDERS), z. B. --memory 2G --pidsLimit 256 --readOnlyMounts; eine Ja/Nein-Option ist ein Schalter, der auch --OPTION=no akzeptiert. Ohne --ttl endet eine Sitzung nach einer Stunde; --ttl 0 bedeutet kein Limit, worauf eine Warnung hinweist.</translation>
    </message>
    <message>
        <source>The account to create the session in (required).</source>
        <translation>Das Konto, in dem die Sitzung erstellt wird (erforderlich).</translation>
    </message>
    <message>
        <source>The image or template to start from; a provider without images ignores it.</source>
        <translation>Das Image oder die Vorlage, von der aus gestartet wird; ein Anbieter ohne Images ignoriert es.</translation>
    </message>
    <message>
        <source>A name for the session, usable as its REF.</source>
        <translation>Ein Name für die Sitzung, auch als ihre REF verwendbar.</translation>
    </message>
    <message>
        <source>The GPUs to give the session: all, a number, or their UUIDs.</source>
        <translation>Die GPUs für die Sitzung: all, eine Anzahl oder ihre UUIDs.</translation>
    </message>
    <message>
        <source>Limit the session to N CPUs (may be a fraction).</source>
        <translation>Die Sitzung auf N CPUs begrenzen (auch Bruchteile).</translation>
    </message>
    <message>
        <source>Limit the session&apos;s memory to N MiB.</source>
        <translation>Den Arbeitsspeicher der Sitzung auf N MiB begrenzen.</translation>
    </message>
    <message>
        <source>End the session after SECONDS (default 3600; 0: no limit).</source>
        <translation>Die Sitzung nach SECONDS Sekunden beenden (Standard 3600; 0: kein Limit).</translation>
    </message>
    <message>
        <source>Set an environment variable in the session.</source>
        <translation>Eine Umgebungsvariable in der Sitzung setzen.</translation>
    </message>
    <message>
        <source>Mount the host folder HOST at PATH in the session, read-only with :ro.</source>
        <translation>Den Ordner HOST dieses Rechners unter PATH in der Sitzung einhängen, mit :ro schreibgeschützt.</translation>
    </message>
    <message>
        <source>Give the session network access (off by default).</source>
        <translation>Der Sitzung Netzwerkzugang geben (standardmäßig aus).</translation>
    </message>
    <message>
        <source>Create a session that ends itself after 15 minutes.</source>
        <translation>Eine Sitzung erstellen, die sich nach 15 Minuten selbst beendet.</translation>
    </message>
    <message>
        <source>Start from an image with this folder mounted read-only.</source>
        <translation>Von einem Image aus starten, mit diesem Ordner schreibgeschützt eingehängt.</translation>
    </message>
    <message>
        <source>Show a session&apos;s state, image, limits, mounts and abilities.</source>
        <translation>Zustand, Image, Limits, Einhängungen und Fähigkeiten einer Sitzung anzeigen.</translation>
    </message>
    <message>
        <source>Stop a session; its files are kept.</source>
        <translation>Eine Sitzung stoppen; ihre Dateien bleiben erhalten.</translation>
    </message>
    <message>
        <source>Kill a session&apos;s processes at once.</source>
        <translation>Die Prozesse einer Sitzung sofort beenden.</translation>
    </message>
    <message>
        <source>Remove a session and its files.</source>
        <translation>Eine Sitzung samt ihren Dateien entfernen.</translation>
    </message>
    <message>
        <source>Pause a session&apos;s processes.</source>
        <translation>Die Prozesse einer Sitzung anhalten.</translation>
    </message>
    <message>
        <source>Resume a paused session.</source>
        <translation>Eine angehaltene Sitzung fortsetzen.</translation>
    </message>
    <message>
        <source>Archive a session, where the provider can.</source>
        <translation>Eine Sitzung archivieren, sofern der Anbieter das kann.</translation>
    </message>
    <message>
        <source>Set a session&apos;s time limit to SECONDS from now (0: none).</source>
        <translation>Das Zeitlimit einer Sitzung auf SECONDS Sekunden ab jetzt setzen (0: keines).</translation>
    </message>
    <message>
        <source>Take a container Sandbar did not create into its listing.</source>
        <translation>Einen Container, den Sandbar nicht erstellt hat, in die eigene Liste übernehmen.</translation>
    </message>
    <message>
        <source>REF is one that sessions list --all shows. The adoption is remembered per account; removing the session ends it.</source>
        <translation>REF ist eine, die sessions list --all anzeigt. Die Übernahme wird pro Konto gespeichert; das Entfernen der Sitzung beendet sie.</translation>
    </message>
    <message>
        <source>Run a command in a session and exit with its exit code.</source>
        <translation>Einen Befehl in einer Sitzung ausführen und mit seinem Exit-Code enden.</translation>
    </message>
    <message>
        <source>Its output streams to this terminal. An interrupt (or TERM, HUP) ends the command in the session too; a second one leaves at once.</source>
        <translation>Seine Ausgabe erscheint laufend in diesem Terminal. Ein Interrupt (oder TERM, HUP) beendet den Befehl auch in der Sitzung; ein zweiter beendet sofort.</translation>
    </message>
    <message>
        <source>Run uname in the session local/3f2a.</source>
        <translation>uname in der Sitzung local/3f2a ausführen.</translation>
    </message>
    <message>
        <source>Open an interactive shell in a session in this terminal.</source>
        <translation>Eine interaktive Shell einer Sitzung in diesem Terminal öffnen.</translation>
    </message>
    <message>
        <source>Copy files between this computer and a session, as docker cp does.</source>
        <translation>Dateien zwischen diesem Rechner und einer Sitzung kopieren, wie docker cp es tut.</translation>
    </message>
    <message>
        <source>An existing folder receives the item under its own name, a path whose parent exists names the copy, a trailing / demands an existing folder, and SRC/. copies a folder&apos;s contents. - reads a tar from standard input (to a session) or writes one to standard output (from a session). A DEST left empty in the session is /workspace/.</source>
        <translation>Ein vorhandener Ordner erhält das Element unter dessen eigenem Namen, ein Pfad mit vorhandenem übergeordnetem Ordner benennt die Kopie, ein abschließendes / verlangt einen vorhandenen Ordner, und SRC/. kopiert den Inhalt eines Ordners. - liest ein tar von der Standardeingabe (in eine Sitzung) oder schreibt eines auf die Standardausgabe (aus einer Sitzung). Ein leeres DEST in der Sitzung ist /workspace/.</translation>
    </message>
    <message>
        <source>Copy the folder src into the session&apos;s /workspace.</source>
        <translation>Den Ordner src in /workspace der Sitzung kopieren.</translation>
    </message>
    <message>
        <source>Copy a file from the session to this folder.</source>
        <translation>Eine Datei aus der Sitzung in diesen Ordner kopieren.</translation>
    </message>
    <message>
        <source>List a folder in a session.</source>
        <translation>Einen Ordner in einer Sitzung auflisten.</translation>
    </message>
    <message>
        <source>Show a session&apos;s CPU, memory, network, disk and GPU use as it runs.</source>
        <translation>CPU-, Speicher-, Netzwerk-, Festplatten- und GPU-Nutzung einer Sitzung laufend anzeigen.</translation>
    </message>
    <message>
        <source>With --json every field is printed, GPUs with their UUID, power and temperature.</source>
        <translation>Mit --json wird jedes Feld ausgegeben, GPUs mit UUID, Leistungsaufnahme und Temperatur.</translation>
    </message>
    <message>
        <source>Print one sample and exit.</source>
        <translation>Einen Messwert ausgeben und beenden.</translation>
    </message>
    <message>
        <source>Show the providers&apos; prices, limits and cold start times.</source>
        <translation>Preise, Limits und Kaltstartzeiten der Anbieter anzeigen.</translation>
    </message>
    <message>
        <source>With --json each figure comes with its source and date. Corrections go in catalog.json in the configuration directory.</source>
        <translation>Mit --json kommt jede Angabe mit Quelle und Datum. Korrekturen gehören in catalog.json im Konfigurationsordner.</translation>
    </message>
    <message>
        <source>Estimate what a workload costs a month with each provider.</source>
        <translation>Schätzen, was eine Arbeitslast bei jedem Anbieter im Monat kostet.</translation>
    </message>
    <message>
        <source>vCPUs the workload needs (required).</source>
        <translation>vCPUs, die die Arbeitslast braucht (erforderlich).</translation>
    </message>
    <message>
        <source>Memory in GiB (required).</source>
        <translation>Arbeitsspeicher in GiB (erforderlich).</translation>
    </message>
    <message>
        <source>Hours a month it runs (required).</source>
        <translation>Laufzeit in Stunden pro Monat (erforderlich).</translation>
    </message>
    <message>
        <source>How busy its CPUs are, from 0 to 1, for providers that bill use.</source>
        <translation>Wie ausgelastet ihre CPUs sind, von 0 bis 1, für Anbieter, die nach Nutzung abrechnen.</translation>
    </message>
    <message>
        <source>How long one session runs, in hours.</source>
        <translation>Wie lange eine Sitzung läuft, in Stunden.</translation>
    </message>
    <message>
        <source>Disk in GiB.</source>
        <translation>Festplattenplatz in GiB.</translation>
    </message>
    <message>
        <source>A GPU type, as the catalog names it.</source>
        <translation>Ein GPU-Typ, wie ihn der Katalog nennt.</translation>
    </message>
    <message>
        <source>How many GPUs of that type (needs --gpu; default 1).</source>
        <translation>Wie viele GPUs dieses Typs (braucht --gpu; Standard 1).</translation>
    </message>
    <message>
        <source>Hours a month it is kept but idle.</source>
        <translation>Stunden pro Monat, in denen sie bereitgehalten wird, aber untätig ist.</translation>
    </message>
    <message>
        <source>Sessions started a month.</source>
        <translation>Gestartete Sitzungen pro Monat.</translation>
    </message>
    <message>
        <source>Network traffic out, in GB a month.</source>
        <translation>Ausgehender Netzwerkverkehr in GB pro Monat.</translation>
    </message>
    <message>
        <source>Take the providers&apos; free monthly credit off.</source>
        <translation>Das kostenlose Monatsguthaben der Anbieter abziehen.</translation>
    </message>
    <message>
        <source>Compare 100 hours a month of 2 vCPUs and 4 GiB.</source>
        <translation>100 Stunden im Monat mit 2 vCPUs und 4 GiB vergleichen.</translation>
    </message>
    <message>
        <source>Show the audit log of what Sandbar did, newest first.</source>
        <translation>Das Audit-Protokoll dessen anzeigen, was Sandbar getan hat, neueste Einträge zuerst.</translation>
    </message>
    <message>
        <source>Only entries since TIME: an ISO 8601 date or time (local unless it names a zone), or an age such as 90s, 30m, 2h, 7d or 2w.</source>
        <translation>Nur Einträge seit TIME: ein Datum oder Zeitpunkt nach ISO 8601 (Ortszeit, sofern keine Zeitzone angegeben ist) oder ein Alter wie 90s, 30m, 2h, 7d oder 2w.</translation>
    </message>
    <message>
        <source>Only entries of account NAME.</source>
        <translation>Nur Einträge des Kontos NAME.</translation>
    </message>
    <message>
        <source>Only entries of the session ID.</source>
        <translation>Nur Einträge der Sitzung ID.</translation>
    </message>
    <message>
        <source>Only entries of one action, e.g. session.created.</source>
        <translation>Nur Einträge einer Aktion, z. B. session.created.</translation>
    </message>
    <message>
        <source>Only entries that contain TEXT.</source>
        <translation>Nur Einträge, die TEXT enthalten.</translation>
    </message>
    <message>
        <source>At most N entries.</source>
        <translation>Höchstens N Einträge.</translation>
    </message>
    <message>
        <source>The sessions created in the last day.</source>
        <translation>Die am letzten Tag erstellten Sitzungen.</translation>
    </message>
    <message>
        <source>Show or set an account&apos;s monthly budget in USD.</source>
        <translation>Das monatliche Budget eines Kontos in USD anzeigen oder festlegen.</translation>
    </message>
    <message>
        <source>Without arguments it lists every budget with what was spent this month; with ACCOUNT, that account&apos;s. The window warns at 80 % and 100 %; none removes the budget.</source>
        <translation>Ohne Argumente werden alle Budgets mit den Ausgaben dieses Monats aufgelistet, mit ACCOUNT das dieses Kontos. Das Fenster warnt bei 80 % und 100 %; none entfernt das Budget.</translation>
    </message>
    <message>
        <source>Stop the account&apos;s running sessions when the budget is spent.</source>
        <translation>Die laufenden Sitzungen des Kontos stoppen, wenn das Budget aufgebraucht ist.</translation>
    </message>
    <message>
        <source>Only warn when the budget is spent.</source>
        <translation>Nur warnen, wenn das Budget aufgebraucht ist.</translation>
    </message>
    <message>
        <source>Allow 25 USD a month and stop sessions beyond it.</source>
        <translation>25 USD im Monat erlauben und Sitzungen darüber hinaus stoppen.</translation>
    </message>
    <message>
        <source>Serve the Model Context Protocol on standard input and output.</source>
        <translation>Das Model Context Protocol über Standardeingabe und -ausgabe anbieten.</translation>
    </message>
    <message>
        <source>JSON-RPC, one message a line, so an agent can list, create and drive sessions with the tools it lists. What agents may do is the agent policy, agent-policy.json in the configuration directory; calls that need approval wait in the running window.</source>
        <translation>JSON-RPC, eine Nachricht pro Zeile, damit ein Agent mit den aufgelisteten Werkzeugen Sitzungen auflisten, erstellen und steuern kann. Was Agenten dürfen, legt die Agenten-Richtlinie fest, agent-policy.json im Konfigurationsordner; Aufrufe, die eine Freigabe brauchen, warten im laufenden Fenster.</translation>
    </message>
    <message>
        <source>Show the commands, or one command&apos;s options.</source>
        <translation>Die Befehle anzeigen oder die Optionen eines Befehls.</translation>
    </message>
    <message>
        <source>Print the version.</source>
        <translation>Die Version ausgeben.</translation>
    </message>
    <message>
        <source>Success.</source>
        <translation>Erfolg.</translation>
    </message>
    <message>
        <source>Failure; one line on standard error says why.</source>
        <translation>Fehler; eine Zeile auf der Standardfehlerausgabe nennt den Grund.</translation>
    </message>
    <message>
        <source>Usage error: an unknown command or option, or a missing argument.</source>
        <translation>Falscher Aufruf: ein unbekannter Befehl oder eine unbekannte Option oder ein fehlendes Argument.</translation>
    </message>
    <message>
        <source>exec was ended by signal N.</source>
        <translation>exec wurde durch das Signal N beendet.</translation>
    </message>
    <message>
        <source>The configuration directory, when --config-dir is not given.</source>
        <translation>Der Konfigurationsordner, wenn --config-dir nicht angegeben ist.</translation>
    </message>
    <message>
        <source>Where the first start looks for a Docker engine, besides the usual sockets.</source>
        <translation>Wo der erste Start neben den üblichen Sockets nach einer Docker-Engine sucht.</translation>
    </message>
    <message>
        <source>The configuration directory is $XDG_CONFIG_HOME/sandbar by default.</source>
        <translation>Der Konfigurationsordner ist standardmäßig $XDG_CONFIG_HOME/sandbar.</translation>
    </message>
    <message>
        <source>The sandbar-agent program the local provider runs in its sessions, when it is not installed next to sandbarctl or in libexec/sandbar.</source>
        <translation>Das Programm sandbar-agent, das der lokale Anbieter in seinen Sitzungen ausführt, wenn es nicht neben sandbarctl oder in libexec/sandbar installiert ist.</translation>
    </message>
    <message>
        <source>The cgroup v2 folder the local provider puts its sessions under, for accounts that do not name one; none turns the limits off.</source>
        <translation>Der cgroup-v2-Ordner, unter dem der lokale Anbieter seine Sitzungen anlegt, für Konten, die keinen nennen; none schaltet die Limits ab.</translation>
    </message>
    <message>
        <source>Accounts and preferences (secrets are in the keychain).</source>
        <translation>Konten und Einstellungen (Geheimnisse liegen im Schlüsselbund).</translation>
    </message>
    <message>
        <source>The audit log.</source>
        <translation>Das Audit-Protokoll.</translation>
    </message>
    <message>
        <source>Budgets and what each account spent.</source>
        <translation>Budgets und die Ausgaben jedes Kontos.</translation>
    </message>
    <message>
        <source>Corrections to the price catalog.</source>
        <translation>Korrekturen am Preiskatalog.</translation>
    </message>
    <message>
        <source>What agents may do over MCP.</source>
        <translation>Was Agenten über MCP dürfen.</translation>
    </message>
    <message>
        <source>Where sandbarctl mcp reaches the running window.</source>
        <translation>Worüber sandbarctl mcp das laufende Fenster erreicht.</translation>
    </message>
    <message>
        <source>drive Sandbar&apos;s sandboxes from the command line</source>
        <translation>Sandbar-Sandboxes über die Befehlszeile steuern</translation>
    </message>
    <message>
        <source>sandbarctl creates and drives sandboxed sessions for AI agents on the accounts Sandbar knows: a local sandbox, Docker and Podman engines, and cloud services such as E2B and Daytona. It shares its accounts, audit log and budgets with the Sandbar window.</source>
        <translation>sandbarctl erstellt und steuert abgeschottete Sitzungen für KI-Agenten auf den Konten, die Sandbar kennt: eine lokale Sandbox, Docker- und Podman-Engines sowie Cloud-Dienste wie E2B und Daytona. Konten, Audit-Protokoll und Budgets teilt es mit dem Sandbar-Fenster.</translation>
    </message>
    <message>
        <source>REF is ACCOUNT/ID (as printed by &apos;sessions create&apos;), or an ID prefix or session name that only one account has.</source>
        <translation>REF ist ACCOUNT/ID (wie von &apos;sessions create&apos; ausgegeben) oder ein ID-Präfix bzw. Sitzungsname, den nur ein Konto hat.</translation>
    </message>
    <message>
        <source>Usage: sandbarctl [--json] [--config-dir DIR] COMMAND [ARGUMENT]...</source>
        <translation>Aufruf: sandbarctl [--json] [--config-dir DIR] COMMAND [ARGUMENT]...</translation>
    </message>
    <message>
        <source>Exit codes: 0 ok, 1 failure, 2 usage. Run &apos;sandbarctl help COMMAND&apos; for a command&apos;s options, or see man sandbarctl.</source>
        <translation>Exit-Codes: 0 ok, 1 Fehler, 2 falscher Aufruf. Die Optionen eines Befehls zeigt &apos;sandbarctl help COMMAND&apos;, alles Weitere man sandbarctl.</translation>
    </message>
    <message>
        <source>Usage:</source>
        <translation>Aufruf:</translation>
    </message>
    <message>
        <source>Options:</source>
        <translation>Optionen:</translation>
    </message>
    <message>
        <source>Examples:</source>
        <translation>Beispiele:</translation>
    </message>
    <message>
        <source>no command &apos;%1&apos;; try &apos;sandbarctl help&apos;</source>
        <translation>kein Befehl &apos;%1&apos;; siehe &apos;sandbarctl help&apos;</translation>
    </message>
    <message>
        <source>Providers:</source>
        <translation>Anbieter:</translation>
    </message>
    <message>
        <source>Trust the host key of an account&apos;s SSH host.</source>
        <translation>Dem Rechnerschlüssel des SSH-Rechners eines Kontos vertrauen.</translation>
    </message>
    <message>
        <source>For an engine reached over ssh://, whose host key ssh does not know yet: Sandbar never trusts one silently, and a command on the account says the fingerprint the host offers. Compare it with the host&apos;s own (ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub there), then trust it: the key is written, as ssh writes keys, to the known_hosts file ssh uses for that host. With --fingerprint, only that key is trusted; a host that offers another is refused.</source>
        <translation>Für eine über ssh:// erreichte Engine, deren Rechnerschlüssel ssh noch nicht kennt: Sandbar vertraut keinem stillschweigend, und ein Befehl auf dem Konto nennt den Fingerabdruck, den der Rechner anbietet. Vergleichen Sie ihn mit dem des Rechners (dort ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub) und vertrauen Sie ihm dann: der Schlüssel wird, wie ssh Schlüssel schreibt, in die known_hosts-Datei geschrieben, die ssh für diesen Rechner verwendet. Mit --fingerprint wird nur diesem Schlüssel vertraut; ein Rechner, der einen anderen anbietet, wird abgelehnt.</translation>
    </message>
    <message>
        <source>Trust the key only if it is this one, as it was shown.</source>
        <translation>Dem Schlüssel nur vertrauen, wenn es dieser ist, wie er angezeigt wurde.</translation>
    </message>
    <message>
        <source>Trust the key build1&apos;s host offers, if it is this one.</source>
        <translation>Dem Schlüssel vertrauen, den der Rechner von build1 anbietet, wenn es dieser ist.</translation>
    </message>
    <message>
        <source>List a session&apos;s snapshots (a sprite&apos;s checkpoints), newest first.</source>
        <translation>Die Snapshots einer Sitzung auflisten (die Checkpoints eines Sprites), neueste zuerst.</translation>
    </message>
    <message>
        <source>Save a snapshot of a session and print its id.</source>
        <translation>Einen Snapshot einer Sitzung speichern und seine ID ausgeben.</translation>
    </message>
    <message>
        <source>What the provider reports while it saves goes to stderr.</source>
        <translation>Was der Anbieter beim Speichern meldet, geht nach stderr.</translation>
    </message>
    <message>
        <source>A note kept with the snapshot.</source>
        <translation>Eine Notiz, die beim Snapshot bleibt.</translation>
    </message>
    <message>
        <source>Put a session back as it was at a snapshot.</source>
        <translation>Eine Sitzung auf den Stand eines Snapshots zurücksetzen.</translation>
    </message>
    <message>
        <source>What runs in the session ends; its files become the snapshot&apos;s.</source>
        <translation>Was in der Sitzung läuft, endet; ihre Dateien werden die des Snapshots.</translation>
    </message>
    <message>
        <source>Copy a session into a new one, where the provider can, and print the new one&apos;s reference.</source>
        <translation>Eine Sitzung in eine neue kopieren, wo der Anbieter es kann, und die Referenz der neuen ausgeben.</translation>
    </message>
    <message>
        <source>The copy has the session&apos;s files and settings (Vercel&apos;s: as its latest snapshot has them), runs at once and keeps its time limit and labels.</source>
        <translation>Die Kopie hat die Dateien und Einstellungen der Sitzung (bei Vercel: so, wie ihr neuester Snapshot sie hat), läuft sofort und behält Zeitlimit und Labels.</translation>
    </message>
    <message>
        <source>The new session&apos;s name.</source>
        <translation>Der Name der neuen Sitzung.</translation>
    </message>
    <message>
        <source>Change settings of a session that exists, where its provider can, and print its reference.</source>
        <translation>Einstellungen einer bestehenden Sitzung ändern, wo ihr Anbieter das kann, und ihre Referenz ausgeben.</translation>
    </message>
    <message>
        <source>The options are the create options the provider can change later, spelt as sessions create spells them (see PROVIDERS): a sprite&apos;s --public-url, or --public-url=no.</source>
        <translation>Die Optionen sind die Erstelloptionen, die der Anbieter später ändern kann, geschrieben wie bei sessions create (siehe PROVIDERS): bei einem Sprite --public-url oder --public-url=no.</translation>
    </message>
    <message>
        <source>Let anyone open the sprite&apos;s URL.</source>
        <translation>Die URL des Sprites für alle öffnen.</translation>
    </message>
    <message>
        <source>Rename or move a file or folder within a session.</source>
        <translation>Eine Datei oder einen Ordner innerhalb einer Sitzung umbenennen oder verschieben.</translation>
    </message>
    <message>
        <source>TO is a path in the same session, or a bare name for a new name in the same folder. Nothing is overwritten: when something is at TO already, the move is refused.</source>
        <translation>ZIEL ist ein Pfad in derselben Sitzung oder ein bloßer Name für einen neuen Namen im selben Ordner. Nichts wird überschrieben: Liegt unter ZIEL schon etwas, wird das Verschieben abgelehnt.</translation>
    </message>
    <message>
        <source>Rename draft.md to final.md in its folder.</source>
        <translation>draft.md in seinem Ordner in final.md umbenennen.</translation>
    </message>
    <message>
        <source>Set the permissions of a file or folder in a session.</source>
        <translation>Die Berechtigungen einer Datei oder eines Ordners in einer Sitzung setzen.</translation>
    </message>
    <message>
        <source>MODE is one to four octal digits, as chmod takes them: 755, 0640. A folder&apos;s contents keep theirs.</source>
        <translation>MODUS sind eine bis vier Oktalziffern, wie chmod sie nimmt: 755, 0640. Der Inhalt eines Ordners behält seine.</translation>
    </message>
    <message>
        <source>List the commands left running in a session, newest first, with their state.</source>
        <translation>Die in einer Sitzung weiterlaufenden Befehle auflisten, neueste zuerst, mit ihrem Zustand.</translation>
    </message>
    <message>
        <source>Where the provider cannot list them (Vercel), the list holds those started through Sandbar with this account.</source>
        <translation>Wo der Anbieter sie nicht auflisten kann (Vercel), enthält die Liste die über Sandbar mit diesem Konto gestarteten.</translation>
    </message>
    <message>
        <source>Start a command that keeps running on its own and print its id.</source>
        <translation>Einen Befehl starten, der für sich weiterläuft, und seine ID ausgeben.</translation>
    </message>
    <message>
        <source>It takes no input. Follow its output with commands logs, end it with commands kill.</source>
        <translation>Er nimmt keine Eingabe. Seine Ausgabe mit commands logs verfolgen, ihn mit commands kill beenden.</translation>
    </message>
    <message>
        <source>Start a development server and leave it running.</source>
        <translation>Einen Entwicklungsserver starten und laufen lassen.</translation>
    </message>
    <message>
        <source>Print a command&apos;s output from its start and follow it until the command ends.</source>
        <translation>Die Ausgabe eines Befehls von seinem Start an ausgeben und verfolgen, bis der Befehl endet.</translation>
    </message>
    <message>
        <source>Its stderr goes to stderr. An interrupt stops following; the command runs on.</source>
        <translation>Sein stderr geht nach stderr. Eine Unterbrechung beendet das Verfolgen; der Befehl läuft weiter.</translation>
    </message>
    <message>
        <source>Send a signal to a command left running (TERM unless told).</source>
        <translation>Einem weiterlaufenden Befehl ein Signal senden (TERM, sofern nicht anders angegeben).</translation>
    </message>
    <message>
        <source>TERM, KILL, INT, HUP, QUIT, USR1, USR2 or a number.</source>
        <translation>TERM, KILL, INT, HUP, QUIT, USR1, USR2 oder eine Zahl.</translation>
    </message>
    <message>
        <source>Set or remove your labels on a session, where its provider can, and print its reference.</source>
        <translation>Ihre Labels an einer Sitzung setzen oder entfernen, wo ihr Anbieter das kann, und ihre Referenz ausgeben.</translation>
    </message>
    <message>
        <source>KEY=VALUE sets a label, KEY- removes one; the others stay. Sandbar&apos;s own labels (dev.sandbar.*) cannot be changed.</source>
        <translation>KEY=VALUE setzt ein Label, KEY- entfernt eines; die anderen bleiben. Sandbars eigene Labels (dev.sandbar.*) lassen sich nicht ändern.</translation>
    </message>
    <message>
        <source>Label the sprite team=web and remove its stage label.</source>
        <translation>Dem Sprite das Label team=web geben und sein Label stage entfernen.</translation>
    </message>
    <message>
        <source>Put one of your labels on the session; Sandbar&apos;s own keys (sandbar, sandbar-*, dev.sandbar.*) are refused.</source>
        <translation>Setzt eines Ihrer Labels auf die Sitzung; Sandbars eigene Schlüssel (sandbar, sandbar-*, dev.sandbar.*) werden abgelehnt.</translation>
    </message>
    <message>
        <source>Only the sessions with this label (any value for KEY alone); repeated, only those with all of them.</source>
        <translation>Nur die Sitzungen mit diesem Label (bei KEY allein mit beliebigem Wert); mehrfach angegeben nur die mit allen.</translation>
    </message>
</context>
</TS>
