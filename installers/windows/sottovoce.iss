; Inno Setup 6 script: the Sottovoce installer for Windows (x64).
;
; On a Windows machine with the project's environment:
;   .venv\Scripts\python installers\build.py
;   "%ProgramFiles(x86)%\Inno Setup 6\ISCC.exe" /DAppVersion=0.1.0 installers\windows\sottovoce.iss
; gives dist\Sottovoce-<version>-setup.exe. It installs the one-folder bundle
; (dist\sottovoce: the windowed Sottovoce.exe and the console
; sottovoce-cli.exe), a Start menu entry, optionally a desktop icon, and
; offers to run the self-test at the end. Per-user by default (no
; administrator rights needed); the person may choose all users.
; Uninstalling keeps the person's encrypted store and settings
; (%LOCALAPPDATA%\sottovoce and %APPDATA%\sottovoce): they are their data.

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif
#define AppName "Sottovoce"
#define BundleDir "..\..\dist\sottovoce"

[Setup]
; A fixed id: later versions upgrade this installation in place.
AppId={{6E0D3C55-6B8F-4B0C-9E0A-2D6C7A1F5B43}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher={#AppName}
AppComments=A desktop privacy assistant: what is private stays on this machine.
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0
OutputDir=..\..\dist
OutputBaseFilename={#AppName}-{#AppVersion}-setup
SetupIconFile=..\assets\sottovoce.ico
UninstallDisplayIcon={app}\Sottovoce.exe
UninstallDisplayName={#AppName}
; The GGUF and the ONNX models compress poorly; lzma2 still halves Qt and spaCy.
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
CloseApplications=yes

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "{#BundleDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\Sottovoce.exe"; Comment: "Chat and draft email privately"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\Sottovoce.exe"; Tasks: desktopicon

[Run]
; cmd /k keeps the console open so the report can be read; the outer quotes survive
; cmd's quote stripping when the folder name has parentheses ("Program Files (x86)").
Filename: "{cmd}"; Parameters: "/k """"{app}\sottovoce-cli.exe"" --self-test"""; Description: "Check the installation (self-test, in a console window)"; Flags: postinstall skipifsilent unchecked
Filename: "{app}\Sottovoce.exe"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent

