<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="es_ES" sourcelanguage="en">
<context>
    <name>ArgumentEditor</name>
    <message>
        <source>zeros</source>
        <translation>ceros</translation>
    </message>
    <message>
        <source>ones</source>
        <translation>unos</translation>
    </message>
    <message>
        <source>constant</source>
        <translation>constante</translation>
    </message>
    <message>
        <source>range</source>
        <translation>rango</translation>
    </message>
    <message>
        <source>uniform random</source>
        <translation>aleatorio uniforme</translation>
    </message>
    <message>
        <source>normal random</source>
        <translation>aleatorio normal</translation>
    </message>
    <message>
        <source>formula</source>
        <translation>fórmula</translation>
    </message>
    <message>
        <source>file</source>
        <translation>archivo</translation>
    </message>
    <message>
        <source>e.g. 400 or 64, 64</source>
        <translation>p. ej. 400 o 64, 64</translation>
    </message>
    <message>
        <source>start</source>
        <translation>inicio</translation>
    </message>
    <message>
        <source>step</source>
        <translation>paso</translation>
    </message>
    <message>
        <source>low</source>
        <translation>mínimo</translation>
    </message>
    <message>
        <source>high</source>
        <translation>máximo</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>semilla</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>media</translation>
    </message>
    <message>
        <source>shape</source>
        <translation>forma</translation>
    </message>
    <message>
        <source>direction</source>
        <translation>dirección</translation>
    </message>
    <message>
        <source>fill</source>
        <translation>relleno</translation>
    </message>
    <message>
        <source>a number, or size(x), rows(x), cols(x), depth(x)</source>
        <translation>un número, o size(x), rows(x), cols(x), depth(x)</translation>
    </message>
    <message>
        <source>there is no array argument &quot;%1&quot; (arrays: %2)</source>
        <translation>no hay ningún argumento de tipo array «%1» (arrays: %2)</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a number, nor size(x), rows(x), cols(x) or depth(x) of an array x</source>
        <translation>«%1» no es un número ni size(x), rows(x), cols(x) o depth(x) de un array x</translation>
    </message>
    <message>
        <source>the kernel&apos;s parameter is a pointer to const: it can only be read, so it is &quot;in&quot;</source>
        <translation>el parámetro del kernel es un puntero a const: solo se puede leer, así que es &quot;in&quot;</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; is not a number</source>
        <translation>%1: «%2» no es un número</translation>
    </message>
    <message>
        <source>seed: &quot;%1&quot; is not a whole number of 0 or more</source>
        <translation>semilla: «%1» no es un número entero mayor o igual que 0</translation>
    </message>
    <message>
        <source>value</source>
        <translation>valor</translation>
    </message>
    <message>
        <source>standard deviation</source>
        <translation>desviación típica</translation>
    </message>
    <message>
        <source>element type</source>
        <translation>tipo de elemento</translation>
    </message>
    <message>
        <source>type the name of a .npy or .csv file in the playground&apos;s folder</source>
        <translation>escribe el nombre de un archivo .npy o .csv de la carpeta del banco de pruebas</translation>
    </message>
</context>
<context>
    <name>ArgumentPanel</name>
    <message>
        <source>No kernel yet.</source>
        <translation>Todavía no hay ningún kernel.</translation>
    </message>
    <message>
        <source>The kernel %1 takes no arguments.</source>
        <translation>El kernel %1 no recibe argumentos.</translation>
    </message>
</context>
<context>
    <name>ArrayPlot</name>
    <message>
        <source>Slice</source>
        <translation>Corte</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>Restablecer zoom</translation>
    </message>
    <message>
        <source>Show the whole array again (wheel zooms, drag pans)</source>
        <translation>Volver a mostrar todo el array (la rueda acerca y aleja, arrastrar desplaza)</translation>
    </message>
    <message>
        <source>Component of the vector type to plot</source>
        <translation>Componente del tipo vectorial que se representa</translation>
    </message>
    <message>
        <source>First index of the 3-D array: the slice shown</source>
        <translation>Primer índice del array 3D: el corte que se muestra</translation>
    </message>
    <message>
        <source>index</source>
        <translation>índice</translation>
    </message>
    <message>
        <source>value</source>
        <translation>valor</translation>
    </message>
    <message>
        <source>reference</source>
        <translation>referencia</translation>
    </message>
    <message>
        <source>output</source>
        <translation>salida</translation>
    </message>
    <message>
        <source>differs</source>
        <translation>difiere</translation>
    </message>
    <message>
        <source>column</source>
        <translation>columna</translation>
    </message>
    <message>
        <source>row</source>
        <translation>fila</translation>
    </message>
    <message>
        <source>differs from the reference</source>
        <translation>difiere de la referencia</translation>
    </message>
    <message>
        <source>An empty array: nothing to plot</source>
        <translation>Un array vacío: no hay nada que representar</translation>
    </message>
    <message>
        <source>Preparing the plot of %L1 values…</source>
        <translation>Preparando el gráfico de %L1 valores…</translation>
    </message>
    <message>
        <source>Cannot plot this array: %1</source>
        <translation>No se puede representar este array: %1</translation>
    </message>
    <message>
        <source>Each cell: the mean of %1 × %2 elements</source>
        <translation>Cada celda: la media de %1 × %2 elementos</translation>
    </message>
    <message>
        <source>1 cell with a value that differs (red, circled)</source>
        <translation>1 celda con un valor que difiere (en rojo, con un círculo)</translation>
    </message>
    <message>
        <source>%L1 cells with a value that differs (red)</source>
        <translation>%L1 celdas con un valor que difiere (en rojo)</translation>
    </message>
    <message>
        <source>%L1 cells with a value that differs (red, circled)</source>
        <translation>%L1 celdas con un valor que difiere (en rojo, con un círculo)</translation>
    </message>
    <message>
        <source>Each point: the min and max of %L1 elements</source>
        <translation>Cada punto: el mínimo y el máximo de %L1 elementos</translation>
    </message>
    <message>
        <source>one value; the reference&apos;s is %1</source>
        <translation>un solo valor; el de la referencia es %1</translation>
    </message>
    <message>
        <source>one value</source>
        <translation>un solo valor</translation>
    </message>
</context>
<context>
    <name>ArrayTableModel</name>
    <message>
        <source>value</source>
        <translation>valor</translation>
    </message>
    <message>
        <source>expected %1 (off by %2)</source>
        <translation>se esperaba %1 (difiere en %2)</translation>
    </message>
</context>
<context>
    <name>BackendChooser</name>
    <message>
        <source>CUDA %1: %2</source>
        <translation>CUDA %1: %2</translation>
    </message>
    <message>
        <source>CPU (%1 threads)</source>
        <translation>CPU (%1 hilos)</translation>
    </message>
    <message>
        <source>CUDA unavailable</source>
        <translation>CUDA no disponible</translation>
    </message>
    <message>
        <source>Where the kernel runs</source>
        <translation>Dónde se ejecuta el kernel</translation>
    </message>
    <message>
        <source>CUDA is unavailable here: %1</source>
        <translation>CUDA no está disponible aquí: %1</translation>
    </message>
    <message>
        <source>no NVIDIA GPU was found on this computer</source>
        <translation>no se encontró ninguna GPU NVIDIA en este equipo</translation>
    </message>
</context>
<context>
    <name>CheckSummary</name>
    <message>
        <source>Matches the reference (%1)</source>
        <translation>Coincide con la referencia (%1)</translation>
    </message>
    <message>
        <source>%L1 of %L2 values differ (%3)</source>
        <translation>%L1 de %L2 valores difieren (%3)</translation>
    </message>
    <message>
        <source>%L1 of %L2 elements differ (%3)</source>
        <translation>%L1 de %L2 elementos difieren (%3)</translation>
    </message>
    <message>
        <source>; first at %1: %2 where the reference has %3</source>
        <translation>; el primero en %1: %2 donde la referencia tiene %3</translation>
    </message>
    <message>
        <source>Not checked: %1</source>
        <translation>Sin comprobar: %1</translation>
    </message>
    <message>
        <source>Not checked: the run had no reference to compare with</source>
        <translation>Sin comprobar: la ejecución no tenía ninguna referencia con la que comparar</translation>
    </message>
    <message>
        <source>Not checked: the run report&apos;s check is unreadable (%1)</source>
        <translation>Sin comprobar: la comprobación del informe de la ejecución no se puede leer (%1)</translation>
    </message>
    <message>
        <source>Not checked: the playground&apos;s check does not include this output</source>
        <translation>Sin comprobar: la comprobación del banco de pruebas no incluye esta salida</translation>
    </message>
    <message>
        <source>Matches the CPU backend&apos;s run of the kernel (%1)</source>
        <translation>Coincide con la ejecución del kernel en el backend de CPU (%1)</translation>
    </message>
    <message>
        <source>; first at %1: %2 where the CPU backend has %3</source>
        <translation>; el primero en %1: %2 donde el backend de CPU tiene %3</translation>
    </message>
    <message>
        <source>Every value lies within %1</source>
        <translation>Todos los valores están dentro de %1</translation>
    </message>
    <message>
        <source>%L1 of %L2 values lie outside %3</source>
        <translation>%L1 de %L2 valores están fuera de %3</translation>
    </message>
    <message>
        <source>; first at %1: %2</source>
        <translation>; el primero en %1: %2</translation>
    </message>
    <message>
        <source>largest difference %1, relative %2</source>
        <translation>mayor diferencia %1, relativa %2</translation>
    </message>
    <message>
        <source>, compared in any order</source>
        <translation>, comparado en cualquier orden</translation>
    </message>
    <message>
        <source>, compared row by row, in any order within each row</source>
        <translation>, comparado fila a fila, en cualquier orden dentro de cada fila</translation>
    </message>
</context>
<context>
    <name>CompileNotice</name>
    <message>
        <source>This playground compiles its kernel with options it chose: %1. They take effect when you run it.</source>
        <translation>Este banco de pruebas compila su kernel con opciones propias: %1. Se aplican al ejecutarlo.</translation>
    </message>
</context>
<context>
    <name>CompiledCodeView</name>
    <message>
        <source>Source lines (-lineinfo)</source>
        <translation>Líneas de código (-lineinfo)</translation>
    </message>
    <message>
        <source>Compile</source>
        <translation>Compilar</translation>
    </message>
    <message>
        <source>The GPU architecture to compile for: its SASS and register counts differ from one to the next</source>
        <translation>La arquitectura de GPU para la que se compila: su SASS y el número de registros cambian de una a otra</translation>
    </message>
    <message>
        <source>Compile with -lineinfo, so that each line of PTX and SASS shows the source line it came from</source>
        <translation>Compilar con -lineinfo, para que cada línea de PTX y SASS muestre la línea de código de la que procede</translation>
    </message>
    <message>
        <source>Compile the kernel as it is in the editor and show its code</source>
        <translation>Compilar el kernel tal como está en el editor y mostrar su código</translation>
    </message>
    <message>
        <source>Compile to see the PTX and SASS of the kernel and the registers each kernel uses.</source>
        <translation>Compila para ver el PTX y el SASS del kernel y los registros que usa cada kernel.</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <source>Registers</source>
        <translation>Registros</translation>
    </message>
    <message>
        <source>Stack</source>
        <translation>Pila</translation>
    </message>
    <message>
        <source>Shared</source>
        <translation>Compartida</translation>
    </message>
    <message>
        <source>Spill stores</source>
        <translation>Derrames (escritura)</translation>
    </message>
    <message>
        <source>Spill loads</source>
        <translation>Derrames (lectura)</translation>
    </message>
    <message>
        <source>Every kernel of the source; choose one to go to its code</source>
        <translation>Todos los kernels del código; elige uno para ir a su código</translation>
    </message>
    <message>
        <source>Registers per thread: more of them leaves room for fewer threads per multiprocessor</source>
        <translation>Registros por hilo: cuantos más, menos hilos caben en cada multiprocesador</translation>
    </message>
    <message>
        <source>Stack frame, bytes per thread (in local memory)</source>
        <translation>Marco de pila, bytes por hilo (en memoria local)</translation>
    </message>
    <message>
        <source>Static shared memory, bytes per block</source>
        <translation>Memoria compartida estática, bytes por bloque</translation>
    </message>
    <message>
        <source>Bytes per thread stored to local memory for want of registers</source>
        <translation>Bytes por hilo escritos en memoria local por falta de registros</translation>
    </message>
    <message>
        <source>Bytes per thread loaded back from local memory for want of registers</source>
        <translation>Bytes por hilo leídos de nuevo de la memoria local por falta de registros</translation>
    </message>
    <message>
        <source>The SASS, the GPU&apos;s own instructions, appears here.</source>
        <translation>Aquí aparece el SASS, las instrucciones propias de la GPU.</translation>
    </message>
    <message>
        <source>PTX</source>
        <translation>PTX</translation>
    </message>
    <message>
        <source>SASS</source>
        <translation>SASS</translation>
    </message>
    <message>
        <source>&amp;Architecture:</source>
        <translation>&amp;Arquitectura:</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>Predeterminada</translation>
    </message>
    <message>
        <source>The GPU&apos;s own architecture; sm_90 on a machine without a GPU</source>
        <translation>La arquitectura de la propia GPU; sm_90 en una máquina sin GPU</translation>
    </message>
    <message>
        <source>%1 (this GPU)</source>
        <translation>%1 (esta GPU)</translation>
    </message>
    <message>
        <source>Compiling...</source>
        <translation>Compilando...</translation>
    </message>
    <message>
        <source>Compiling for %1...</source>
        <translation>Compilando para %1...</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Actualizar</translation>
    </message>
    <message>
        <source>Tick Source lines to see which source line each line of code comes from.</source>
        <translation>Marca Líneas de código para ver de qué línea del código fuente procede cada línea.</translation>
    </message>
    <message>
        <source>Not compiled: %1</source>
        <translation>Sin compilar: %1</translation>
    </message>
    <message>
        <source>Not compiled: %1 The code shown is from the last compile.</source>
        <translation>Sin compilar: %1 El código mostrado es de la última compilación.</translation>
    </message>
    <message>
        <source>Constant memory: %1 bytes</source>
        <translation>Memoria constante: %1 bytes</translation>
    </message>
    <message>
        <source>Barriers: %1</source>
        <translation>Barreras: %1</translation>
    </message>
    <message>
        <source>Default (%1)</source>
        <translation>Predeterminada (%1)</translation>
    </message>
    <message>
        <source>The PTX, the compiler&apos;s portable assembly of the kernel, appears here.</source>
        <translation>Aquí aparece el PTX, el ensamblador portable del kernel que genera el compilador.</translation>
    </message>
    <message>
        <source>The compiler made no SASS (machine code) for this kernel.</source>
        <translation>El compilador no generó SASS (código máquina) para este kernel.</translation>
    </message>
    <message>
        <source>%1: 1 kernel, unchanged since the last compile</source>
        <translation>%1: 1 kernel, sin cambios desde la última compilación</translation>
    </message>
    <message>
        <source>%1: %L2 kernels, unchanged since the last compile</source>
        <translation>%1: %L2 kernels, sin cambios desde la última compilación</translation>
    </message>
    <message>
        <source>%1: 1 kernel, compiled in %2 ms</source>
        <translation>%1: 1 kernel, compilado en %2 ms</translation>
    </message>
    <message>
        <source>%1: %L2 kernels, compiled in %3 ms</source>
        <translation>%1: %L2 kernels, compilados en %3 ms</translation>
    </message>
    <message>
        <source>No SASS this time: the SASS tab says why.</source>
        <translation>Esta vez no hay SASS: la pestaña SASS explica por qué.</translation>
    </message>
</context>
<context>
    <name>DockLayout</name>
    <message>
        <source>Samples</source>
        <translation>Ejemplos</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>Lección</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>Argumentos</translation>
    </message>
    <message>
        <source>Launch</source>
        <translation>Lanzamiento</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Pasos</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>Problemas</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>Salida</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>Resultados</translation>
    </message>
    <message>
        <source>Timings</source>
        <translation>Tiempos</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>Barrido</translation>
    </message>
    <message>
        <source>Compiled Code</source>
        <translation>Código compilado</translation>
    </message>
</context>
<context>
    <name>FileMenu</name>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Archivo</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>&amp;Nuevo</translation>
    </message>
    <message>
        <source>&amp;Open...</source>
        <translation>&amp;Abrir...</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Abrir</translation>
    </message>
    <message>
        <source>Playgrounds and CUDA sources (*.kpad.json *.cu);;All files (*)</source>
        <translation>Bancos de pruebas y código CUDA (*.kpad.json *.cu);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>Abrir &amp;reciente</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Guardar</translation>
    </message>
    <message>
        <source>Save &amp;As...</source>
        <translation>Guardar &amp;como...</translation>
    </message>
    <message>
        <source>Save As</source>
        <translation>Guardar como</translation>
    </message>
    <message>
        <source>Playgrounds (*.kpad.json);;CUDA source (*.cu)</source>
        <translation>Bancos de pruebas (*.kpad.json);;Código CUDA (*.cu)</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>&amp;Exportar</translation>
    </message>
    <message>
        <source>Timings &amp;Plot...</source>
        <translation>&amp;Gráfico de tiempos...</translation>
    </message>
    <message>
        <source>Export timings plot</source>
        <translation>Exportar el gráfico de tiempos</translation>
    </message>
    <message>
        <source>Images (*.png *.svg *.pdf)</source>
        <translation>Imágenes (*.png *.svg *.pdf)</translation>
    </message>
    <message>
        <source>Run &amp;History (CSV)...</source>
        <translation>&amp;Historial de ejecuciones (CSV)...</translation>
    </message>
    <message>
        <source>Export run history</source>
        <translation>Exportar el historial de ejecuciones</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Salir</translation>
    </message>
</context>
<context>
    <name>FindBar</name>
    <message>
        <source>Find (Enter: next, Esc: close)</source>
        <translation>Buscar (Intro: siguiente, Esc: cerrar)</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not in the text</source>
        <translation>«%1» no aparece en el texto</translation>
    </message>
</context>
<context>
    <name>GridDrawing</name>
    <message>
        <source>No array argument: nothing to lay the grid over</source>
        <translation>No hay ningún argumento de tipo array: nada sobre lo que dibujar el grid</translation>
    </message>
    <message>
        <source>threads on data</source>
        <translation>hilos sobre datos</translation>
    </message>
    <message>
        <source>idle threads</source>
        <translation>hilos inactivos</translation>
    </message>
    <message>
        <source>data the loop reaches later</source>
        <translation>datos a los que el bucle llega después</translation>
    </message>
    <message>
        <source>data no thread reaches</source>
        <translation>datos a los que no llega ningún hilo</translation>
    </message>
</context>
<context>
    <name>HelpDialog</name>
    <message>
        <source>Open Sample</source>
        <translation>Abrir ejemplo</translation>
    </message>
    <message>
        <source>Kernelpad Help</source>
        <translation>Ayuda de Kernelpad</translation>
    </message>
    <message>
        <source>The guide is missing from this build (:/help/guide.md).</source>
        <translation>Esta compilación no incluye la guía (:/help/guide.md).</translation>
    </message>
    <message>
        <source>Guide</source>
        <translation>Guía</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Atajos de teclado</translation>
    </message>
    <message>
        <source>Lessons</source>
        <translation>Lecciones</translation>
    </message>
    <message>
        <source>Menu</source>
        <translation>Menú</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Acción</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Teclas</translation>
    </message>
</context>
<context>
    <name>HelpMenu</name>
    <message>
        <source>&amp;Help</source>
        <translation>Ay&amp;uda</translation>
    </message>
    <message>
        <source>Kernelpad &amp;Guide</source>
        <translation>&amp;Guía de Kernelpad</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>Atajos de &amp;teclado</translation>
    </message>
    <message>
        <source>&amp;Lessons</source>
        <translation>&amp;Lecciones</translation>
    </message>
    <message>
        <source>&amp;About Kernelpad</source>
        <translation>&amp;Acerca de Kernelpad</translation>
    </message>
    <message>
        <source>About Kernelpad</source>
        <translation>Acerca de Kernelpad</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Kernelpad %1&lt;/h3&gt;&lt;p&gt;A desktop playground for CUDA kernels: write a kernel, run it on a GPU or on the CPU, check it against a CPU reference and compare the timings.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Kernelpad %1&lt;/h3&gt;&lt;p&gt;Un banco de pruebas de escritorio para kernels CUDA: escribe un kernel, ejecútalo en una GPU o en la CPU, compruébalo con una referencia en CPU y compara los tiempos.&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>Language</name>
    <message>
        <source>Kernelpad will be shown in %1 the next time it starts.</source>
        <translation>Kernelpad se mostrará en %1 la próxima vez que se inicie.</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Idioma</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Idioma</translation>
    </message>
</context>
<context>
    <name>LaunchPanel</name>
    <message>
        <source>auto</source>
        <translation>auto</translation>
    </message>
    <message>
        <source> B</source>
        <translation> B</translation>
    </message>
    <message>
        <source>Enough blocks to cover the first array argument, x along its last dimension</source>
        <translation>Bloques suficientes para cubrir el primer argumento de tipo array, con x a lo largo de su última dimensión</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>Bloque</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>Grid</translation>
    </message>
    <message>
        <source>Dynamic shared</source>
        <translation>Compartida dinámica</translation>
    </message>
    <message>
        <source>%1 = %2 per block; %3, %4, %5 in all</source>
        <translation>%1 = %2 por bloque; %3, %4, %5 en total</translation>
    </message>
    <message>
        <source>thread</source>
        <translation>hilo</translation>
    </message>
    <message>
        <source>threads</source>
        <translation>hilos</translation>
    </message>
    <message>
        <source>warp</source>
        <translation>warp</translation>
    </message>
    <message>
        <source>warps</source>
        <translation>warps</translation>
    </message>
    <message>
        <source>block</source>
        <translation>bloque</translation>
    </message>
    <message>
        <source>blocks</source>
        <translation>bloques</translation>
    </message>
    <message>
        <source>Occupancy on %1: known once the kernel is compiled</source>
        <translation>Ocupación en %1: se conocerá cuando el kernel esté compilado</translation>
    </message>
    <message>
        <source>Occupancy 0%: not one block fits on an SM; %1</source>
        <translation>Ocupación 0 %: ningún bloque cabe en un SM; %1</translation>
    </message>
    <message>
        <source>Occupancy %1: %2 of %3 warps, %4 per SM; limited by %5</source>
        <translation>Ocupación %1: %2 de %3 warps, %4 por SM; limitada por %5</translation>
    </message>
    <message>
        <source>Occupancy: %1</source>
        <translation>Ocupación: %1</translation>
    </message>
    <message>
        <source>element</source>
        <translation>elemento</translation>
    </message>
    <message>
        <source>elements</source>
        <translation>elementos</translation>
    </message>
    <message>
        <source>The kernel reads gridDim: a grid-stride loop, so its %1 reach all %2 in one turn</source>
        <translation>El kernel lee gridDim: es un bucle grid-stride, así que sus %1 llegan a los %2 en una sola vuelta</translation>
    </message>
    <message>
        <source>The kernel reads gridDim: a grid-stride loop, so its %1 reach all %2, about %3 each</source>
        <translation>El kernel lee gridDim: es un bucle grid-stride, así que sus %1 llegan a los %2, unos %3 cada uno</translation>
    </message>
    <message>
        <source>; %1 (%2)</source>
        <translation>; %1 (%2)</translation>
    </message>
    <message>
        <source>idle thread</source>
        <translation>hilo inactivo</translation>
    </message>
    <message>
        <source>idle threads</source>
        <translation>hilos inactivos</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>; %1 (%2) past the grid: no thread reaches them</source>
        <translation>; %1 (%2) fuera del grid: ningún hilo llega a ellos</translation>
    </message>
    <message>
        <source>grid %1×%2×%3, block %4×%5×%6</source>
        <translation>grid %1×%2×%3, bloque %4×%5×%6</translation>
    </message>
    <message>
        <source>Over %1: </source>
        <translation>Sobre %1: </translation>
    </message>
    <message>
        <source>The grid has one thread for every %1 elements: if each thread takes %1, all %2 are reached; %3 (%4)</source>
        <translation>El grid tiene un hilo por cada %1 elementos: si cada hilo se ocupa de %1, se llega a los %2; %3 (%4)</translation>
    </message>
    <message>
        <source>launch.grid: &quot;auto&quot; sizes the grid to the first array argument, but this kernel takes no array: untick auto and give the grid size</source>
        <translation>launch.grid: «auto» ajusta el grid al primer argumento de tipo array, pero este kernel no recibe ningún array: desmarca «auto» e indica el tamaño del grid</translation>
    </message>
    <message>
        <source>Occupancy: applies only when the kernel runs on a GPU</source>
        <translation>Ocupación: solo se aplica cuando el kernel se ejecuta en una GPU</translation>
    </message>
</context>
<context>
    <name>LessonView</name>
    <message>
        <source>*This playground has no lesson.* The samples (View &gt; Samples) each come with one.</source>
        <translation>*Este banco de pruebas no tiene lección.* Cada uno de los ejemplos (Ver &gt; Ejemplos) trae la suya.</translation>
    </message>
    <message>
        <source>*The lesson %1 cannot be read: %2.*</source>
        <translation>*No se puede leer la lección %1: %2.*</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Kernelpad</source>
        <translation>Kernelpad</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Abrir</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Editar</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Deshacer</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Rehacer</translation>
    </message>
    <message>
        <source>&amp;Find...</source>
        <translation>&amp;Buscar...</translation>
    </message>
    <message>
        <source>Find &amp;Next</source>
        <translation>Buscar &amp;siguiente</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>&amp;Ampliar</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>Red&amp;ucir</translation>
    </message>
    <message>
        <source>&amp;Reset Zoom</source>
        <translation>Restablecer &amp;zoom</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ver</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>Problemas</translation>
    </message>
    <message>
        <source>untitled</source>
        <translation>sin título</translation>
    </message>
    <message>
        <source>%1%2 — Kernelpad</source>
        <translation>%1%2 — Kernelpad</translation>
    </message>
    <message>
        <source>Problems (%1)</source>
        <translation>Problemas (%1)</translation>
    </message>
    <message>
        <source>The playground&apos;s sweep settings were not read: %1</source>
        <translation>No se pudo leer la configuración de barrido del banco de pruebas: %1</translation>
    </message>
    <message>
        <source>Not swept: %1</source>
        <translation>Sin barrido: %1</translation>
    </message>
    <message>
        <source>the last run did not compile (see Problems).</source>
        <translation>la última ejecución no compiló (ver Problemas).</translation>
    </message>
    <message>
        <source>the last run failed (see Output).</source>
        <translation>la última ejecución falló (ver Salida).</translation>
    </message>
    <message>
        <source>Not run. %1</source>
        <translation>No se ejecutó. %1</translation>
    </message>
    <message>
        <source>the last run was not started (%1).</source>
        <translation>la última ejecución no se inició (%1).</translation>
    </message>
    <message>
        <source>Reset La&amp;yout</source>
        <translation>Restablecer &amp;diseño</translation>
    </message>
    <message>
        <source>Kernelpad cannot keep playground code away from your files on this computer (%1), so it asks before it runs a file you did not write.</source>
        <translation>Kernelpad no puede impedir en este equipo que el código de un banco de pruebas acceda a tus archivos (%1), así que te pregunta antes de ejecutar un archivo que no hayas escrito tú.</translation>
    </message>
</context>
<context>
    <name>OutputPane</name>
    <message>
        <source>Save array…</source>
        <translation>Guardar array…</translation>
    </message>
    <message>
        <source>Save this output as .npy or .csv</source>
        <translation>Guardar esta salida como .npy o .csv</translation>
    </message>
    <message>
        <source>Save plot…</source>
        <translation>Guardar gráfico…</translation>
    </message>
    <message>
        <source>Save the plot as .png, .svg or .pdf</source>
        <translation>Guardar el gráfico como .png, .svg o .pdf</translation>
    </message>
    <message>
        <source>Go to index: 12 or 3, 4</source>
        <translation>Ir al índice: 12 o 3, 4</translation>
    </message>
    <message>
        <source>An element&apos;s indices, one per dimension, or its flat index; Enter to go</source>
        <translation>Los índices de un elemento, uno por dimensión, o su índice plano; Intro para ir</translation>
    </message>
    <message>
        <source> · rows %L1–%L2 of %L3</source>
        <translation> · filas %L1–%L2 de %L3</translation>
    </message>
    <message>
        <source> · columns %L1–%L2 of %L3</source>
        <translation> · columnas %L1–%L2 de %L3</translation>
    </message>
    <message>
        <source>Scrolling past the end of the rows shown moves on through the array; type an index to jump</source>
        <translation>Al desplazarse más allá de las filas mostradas se avanza por el array; escribe un índice para saltar</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an index</source>
        <translation>«%1» no es un índice</translation>
    </message>
    <message>
        <source>no element [%1] in shape %2</source>
        <translation>no hay ningún elemento [%1] en la forma %2</translation>
    </message>
    <message>
        <source>the file name should end in .npy or .csv</source>
        <translation>el nombre del archivo debe terminar en .npy o .csv</translation>
    </message>
    <message>
        <source>the file name should end in .png, .svg or .pdf</source>
        <translation>el nombre del archivo debe terminar en .png, .svg o .pdf</translation>
    </message>
    <message>
        <source>the plot could not be drawn as %1</source>
        <translation>el gráfico no se pudo dibujar como %1</translation>
    </message>
</context>
<context>
    <name>PlaygroundDocument</name>
    <message>
        <source>Save As</source>
        <translation>Guardar como</translation>
    </message>
    <message>
        <source>Playgrounds (*.kpad.json);;CUDA source (*.cu)</source>
        <translation>Bancos de pruebas (*.kpad.json);;Código CUDA (*.cu)</translation>
    </message>
    <message>
        <source>untitled</source>
        <translation>sin título</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>Se abrió %1</translation>
    </message>
    <message>
        <source>Could not save %1: %2. The file on disk is unchanged.</source>
        <translation>No se pudo guardar %1: %2. El archivo en disco no ha cambiado.</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>Se guardó %1</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>Cambios sin guardar</translation>
    </message>
    <message>
        <source>%1 has changes that are not saved. Save them?</source>
        <translation>%1 tiene cambios sin guardar. ¿Quieres guardarlos?</translation>
    </message>
    <message>
        <source>The playground</source>
        <translation>El banco de pruebas</translation>
    </message>
    <message>
        <source>Autosave failed: %1</source>
        <translation>Falló el guardado automático: %1</translation>
    </message>
    <message>
        <source>Not saved: %1 was kept as it is. Save under another name.</source>
        <translation>No se guardó: %1 se dejó como estaba. Guarda con otro nombre.</translation>
    </message>
    <message>
        <source>Could not save the playground %1: %2. The file on disk is unchanged.</source>
        <translation>No se pudo guardar el banco de pruebas %1: %2. El archivo en disco no ha cambiado.</translation>
    </message>
    <message>
        <source>Could not save the playground %1 with its kernel source %2: %3. Both files on disk are unchanged.</source>
        <translation>No se pudo guardar el banco de pruebas %1 con el código de su kernel %2: %3. Ninguno de los dos archivos en disco ha cambiado.</translation>
    </message>
    <message>
        <source>Saved the playground as %1: a playground&apos;s name ends in .kpad.json</source>
        <translation>Se guardó el banco de pruebas como %1: el nombre de un banco de pruebas termina en .kpad.json</translation>
    </message>
    <message>
        <source> (the arguments and launch are not in a .cu file: save as .kpad.json to keep them)</source>
        <translation> (los argumentos y el lanzamiento no van en un archivo .cu: guarda como .kpad.json para conservarlos)</translation>
    </message>
    <message>
        <source>Replace file</source>
        <translation>Reemplazar archivo</translation>
    </message>
    <message>
        <source>%1 already exists, and this playground was not opened from it. Replace it?</source>
        <translation>%1 ya existe y este banco de pruebas no se abrió desde él. ¿Reemplazarlo?</translation>
    </message>
    <message>
        <source>The restored playground did not read (%1): only its text is restored.</source>
        <translation>El banco de pruebas restaurado no se pudo leer (%1): solo se restaura su texto.</translation>
    </message>
    <message>
        <source>%1 cannot be opened (%2): the restored text is untitled, save it under a name.</source>
        <translation>No se puede abrir %1 (%2): el texto restaurado queda sin título; guárdalo con un nombre.</translation>
    </message>
    <message>
        <source>it is not there</source>
        <translation>no existe</translation>
    </message>
    <message>
        <source>Restored the playground %1 saved at %2</source>
        <translation>Se restauró el banco de pruebas %1 guardado a las %2</translation>
    </message>
    <message>
        <source>Save Your Copy of the Sample</source>
        <translation>Guardar tu copia del ejemplo</translation>
    </message>
    <message>
        <source>Your changes to the sample %1 are not saved. Save them as a copy of your own? (The sample itself stays as it came.)</source>
        <translation>Tus cambios en el ejemplo %1 no están guardados. ¿Quieres guardarlos como una copia tuya? (El ejemplo original queda tal como venía.)</translation>
    </message>
</context>
<context>
    <name>PlotExport</name>
    <message>
        <source>Cannot export to %1: it has no extension; choose a file name ending in .png, .svg or .pdf</source>
        <translation>No se puede exportar a %1: no tiene extensión; elige un nombre de archivo que termine en .png, .svg o .pdf</translation>
    </message>
    <message>
        <source>Cannot export a .%1 file: choose a file name ending in .png, .svg or .pdf</source>
        <translation>No se puede exportar un archivo .%1: elige un nombre de archivo que termine en .png, .svg o .pdf</translation>
    </message>
    <message>
        <source>the plot could not be drawn</source>
        <translation>el gráfico no se pudo dibujar</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>No se pudo escribir %1: %2</translation>
    </message>
</context>
<context>
    <name>PresentationMode</name>
    <message>
        <source>&amp;Presentation Mode</source>
        <translation>Modo &amp;presentación</translation>
    </message>
    <message>
        <source>Large fonts, high contrast and full screen, for a classroom (F11)</source>
        <translation>Letra grande, alto contraste y pantalla completa, para el aula (F11)</translation>
    </message>
    <message>
        <source>Presentation mode: F11 leaves it</source>
        <translation>Modo presentación: F11 para salir</translation>
    </message>
</context>
<context>
    <name>ProblemsView</name>
    <message>
        <source>Severity</source>
        <translation>Gravedad</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>Línea</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Mensaje</translation>
    </message>
    <message>
        <source>error</source>
        <translation>error</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>advertencia</translation>
    </message>
    <message>
        <source>note</source>
        <translation>nota</translation>
    </message>
</context>
<context>
    <name>ProgramController</name>
    <message>
        <source>A program&apos;s launches have their grids and blocks in its steps: see the Steps panel</source>
        <translation>Los lanzamientos de un programa tienen su grid y su bloque en sus pasos: consulta el panel Pasos</translation>
    </message>
</context>
<context>
    <name>ProgramPanel</name>
    <message>
        <source>Duplicate</source>
        <translation>Duplicar</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Eliminar</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>Subir</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>Bajar</translation>
    </message>
    <message>
        <source>Make it a program</source>
        <translation>Convertirlo en un programa</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Paso</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Ejecuciones</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Añadir</translation>
    </message>
    <message>
        <source>&amp;Launch a kernel</source>
        <translation>&amp;Lanzar un kernel</translation>
    </message>
    <message>
        <source>&amp;Copy between buffers</source>
        <translation>&amp;Copiar entre buffers</translation>
    </message>
    <message>
        <source>&amp;Fill a buffer</source>
        <translation>Rell&amp;enar un buffer</translation>
    </message>
    <message>
        <source>S&amp;wap two buffers</source>
        <translation>&amp;Intercambiar dos buffers</translation>
    </message>
    <message>
        <source>Write a __constant__ or __device__ s&amp;ymbol</source>
        <translation>Escribir un &amp;símbolo __constant__ o __device__</translation>
    </message>
    <message>
        <source>Set &amp;variables</source>
        <translation>Asignar &amp;variables</translation>
    </message>
    <message>
        <source>&amp;Repeat steps</source>
        <translation>&amp;Repetir pasos</translation>
    </message>
    <message>
        <source>Scratch &amp;buffer</source>
        <translation>&amp;Buffer temporal</translation>
    </message>
    <message>
        <source>Vi&amp;ew of a buffer</source>
        <translation>Vis&amp;ta de un buffer</translation>
    </message>
    <message>
        <source>Move the step up; at the top of a loop it leaves the loop, under a loop it enters it</source>
        <translation>Subir el paso; si está al principio de un bucle, sale del bucle; si está justo debajo de un bucle, entra en él</translation>
    </message>
    <message>
        <source>Move the step down; at the end of a loop it leaves the loop, above a loop it enters it</source>
        <translation>Bajar el paso; si está al final de un bucle, sale del bucle; si está justo encima de un bucle, entra en él</translation>
    </message>
    <message>
        <source>This playground launches one kernel once. A program launches kernels in steps, with scratch buffers, copies, loops and constant memory, as a notebook&apos;s host code does around its launches: a reduction in passes, a scan of the partial sums, a stencil repeated over two swapped buffers.</source>
        <translation>Este banco de pruebas lanza un kernel una sola vez. Un programa lanza kernels en pasos, con buffers temporales, copias, bucles y memoria constante, como hace el código host de un notebook en torno a sus lanzamientos: una reducción en varias pasadas, un scan de las sumas parciales, un stencil repetido sobre dos buffers que se intercambian.</translation>
    </message>
    <message>
        <source>The launch becomes the program&apos;s first step; the arguments stay as they are</source>
        <translation>El lanzamiento pasa a ser el primer paso del programa; los argumentos se quedan como están</translation>
    </message>
    <message>
        <source>Variables: %1</source>
        <translation>Variables: %1</translation>
    </message>
    <message>
        <source>Buffers</source>
        <translation>Buffers</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Pasos</translation>
    </message>
    <message>
        <source>Scratch buffers live where the kernels run, start as zeros and are never copied back; a view is a part of another buffer. Add ▸ Scratch buffer or View.</source>
        <translation>Los buffers temporales residen donde se ejecutan los kernels, empiezan a cero y nunca se copian de vuelta; una vista es una parte de otro buffer. Añadir ▸ Buffer temporal o Vista de un buffer.</translation>
    </message>
    <message>
        <source>Select a step to edit it. Add puts a new step after the selection, or inside it when it is a loop.</source>
        <translation>Selecciona un paso para editarlo. Añadir coloca un paso nuevo después del seleccionado, o dentro de él si es un bucle.</translation>
    </message>
    <message>
        <source>Variables</source>
        <translation>Variables</translation>
    </message>
    <message>
        <source>block = 256; passes = 10</source>
        <translation>block = 256; passes = 10</translation>
    </message>
    <message>
        <source>Numbers the steps use by name, separated by &apos;;&apos;. A block-size sweep sets &quot;block&quot;.</source>
        <translation>Números que los pasos usan por su nombre, separados por «;». Un barrido del tamaño de bloque asigna «block».</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <source>View of</source>
        <translation>Vista de</translation>
    </message>
    <message>
        <source>From element</source>
        <translation>Desde el elemento</translation>
    </message>
    <message>
        <source>Elements</source>
        <translation>Elementos</translation>
    </message>
    <message>
        <source>to the end</source>
        <translation>hasta el final</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>Forma</translation>
    </message>
    <message>
        <source>1 to 3 dimensions, each a number or an expression: divup(size(a), 512)</source>
        <translation>De 1 a 3 dimensiones, cada una un número o una expresión: divup(size(a), 512)</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Título</translation>
    </message>
    <message>
        <source>what the step is for (optional)</source>
        <translation>para qué sirve el paso (opcional)</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Origen</translation>
    </message>
    <message>
        <source>To</source>
        <translation>Destino</translation>
    </message>
    <message>
        <source>all that fit</source>
        <translation>todos los que quepan</translation>
    </message>
    <message>
        <source>Buffer</source>
        <translation>Buffer</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>With</source>
        <translation>Con</translation>
    </message>
    <message>
        <source>Symbol</source>
        <translation>Símbolo</translation>
    </message>
    <message>
        <source>From buffer</source>
        <translation>Desde el buffer</translation>
    </message>
    <message>
        <source>Or values</source>
        <translation>O valores</translation>
    </message>
    <message>
        <source>0.25, 0.5, 0.25</source>
        <translation>0.25, 0.5, 0.25</translation>
    </message>
    <message>
        <source>Set</source>
        <translation>Asignar</translation>
    </message>
    <message>
        <source>name = expression, separated by &apos;;&apos;: every value is worked out first, then every name is set</source>
        <translation>nombre = expresión, separados por «;»: primero se calculan todos los valores y luego se asignan todos los nombres</translation>
    </message>
    <message>
        <source>Times</source>
        <translation>Veces</translation>
    </message>
    <message>
        <source>a number of passes, or leave empty and give While</source>
        <translation>un número de pasadas, o déjalo vacío e indica Mientras</translation>
    </message>
    <message>
        <source>While</source>
        <translation>Mientras</translation>
    </message>
    <message>
        <source>m &gt; 1</source>
        <translation>m &gt; 1</translation>
    </message>
    <message>
        <source>Counter</source>
        <translation>Contador</translation>
    </message>
    <message>
        <source>a variable that counts the passes (optional)</source>
        <translation>una variable que cuenta las pasadas (opcional)</translation>
    </message>
    <message>
        <source>Counter from</source>
        <translation>Contador desde</translation>
    </message>
    <message>
        <source>Then</source>
        <translation>Después</translation>
    </message>
    <message>
        <source>counter + 1</source>
        <translation>contador + 1</translation>
    </message>
    <message>
        <source>At most</source>
        <translation>Como máximo</translation>
    </message>
    <message>
        <source>%L1 passes</source>
        <translation>%L1 pasadas</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>Plantilla</translation>
    </message>
    <message>
        <source>float, block (for a template kernel)</source>
        <translation>float, block (para un kernel con plantilla)</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>auto</translation>
    </message>
    <message>
        <source>Enough blocks to cover the first pointer argument</source>
        <translation>Bloques suficientes para cubrir el primer argumento de tipo puntero</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>Grid</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>Bloque</translation>
    </message>
    <message>
        <source>Shared bytes</source>
        <translation>Bytes de memoria compartida</translation>
    </message>
    <message>
        <source>Arguments: a buffer (or buffer + offset) for each pointer, a number or an expression for each value</source>
        <translation>Argumentos: un buffer (o buffer + desplazamiento) para cada puntero, un número o una expresión para cada valor</translation>
    </message>
    <message>
        <source>Arguments (the source declares no kernel of this name)</source>
        <translation>Argumentos (el código no declara ningún kernel con este nombre)</translation>
    </message>
    <message>
        <source>argument %1</source>
        <translation>argumento %1</translation>
    </message>
    <message>
        <source>×%L1</source>
        <translation>×%L1</translation>
    </message>
    <message>
        <source>Variables (none)</source>
        <translation>Variables (ninguna)</translation>
    </message>
    <message>
        <source>1 pass</source>
        <translation>1 pasada</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>give 1 to 3 dimensions, like 400 or 64, 64</source>
        <translation>indica de 1 a 3 dimensiones, como 400 o 64, 64</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a positive whole number of at most 2^36</source>
        <translation>«%1» no es un número entero positivo de como mucho 2^36</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>no medido</translation>
    </message>
    <message>
        <source>%1 did not run at %2 %3: %4</source>
        <translation>%1 no se ejecutó en %2 %3: %4</translation>
    </message>
    <message>
        <source>%1 did not run at %2 points, the first at %3 %4: %5</source>
        <translation>%1 no se ejecutó en %2 puntos, el primero en %3 %4: %5</translation>
    </message>
    <message>
        <source>blockDim.x = %1</source>
        <translation>blockDim.x = %1</translation>
    </message>
    <message>
        <source>n = %1</source>
        <translation>n = %1</translation>
    </message>
    <message>
        <source>%1 GFLOP/s</source>
        <translation>%1 GFLOP/s</translation>
    </message>
    <message>
        <source> (%1% of the roof)</source>
        <translation> (%1 % del techo)</translation>
    </message>
    <message>
        <source>%1 spread</source>
        <translation>dispersión de %1</translation>
    </message>
    <message>
        <source>%1 with copies</source>
        <translation>%1 con copias</translation>
    </message>
    <message>
        <source>%1 peak: %2 GB/s</source>
        <translation>Pico de %1: %2 GB/s</translation>
    </message>
    <message>
        <source>copy in</source>
        <translation>copia de entrada</translation>
    </message>
    <message>
        <source>host → device</source>
        <translation>host → dispositivo</translation>
    </message>
    <message>
        <source>kernel (CPU)</source>
        <translation>kernel (CPU)</translation>
    </message>
    <message>
        <source>kernel</source>
        <translation>kernel</translation>
    </message>
    <message>
        <source>copy out</source>
        <translation>copia de salida</translation>
    </message>
    <message>
        <source>device → host</source>
        <translation>dispositivo → host</translation>
    </message>
    <message>
        <source>CPU backend</source>
        <translation>Backend de CPU</translation>
    </message>
    <message>
        <source>CPU reference</source>
        <translation>Referencia en CPU</translation>
    </message>
    <message>
        <source>%1: view of %2 from %3%4</source>
        <translation>%1: vista de %2 desde %3%4</translation>
    </message>
    <message>
        <source>, %1 elements</source>
        <translation>, %1 elementos</translation>
    </message>
    <message>
        <source>program (CPU)</source>
        <translation>programa (CPU)</translation>
    </message>
    <message>
        <source>program</source>
        <translation>programa</translation>
    </message>
    <message>
        <source>The sweep was stopped: its later points are missing.</source>
        <translation>El barrido se detuvo: faltan sus últimos puntos.</translation>
    </message>
</context>
<context>
    <name>RecoveryOffer</name>
    <message>
        <source>Restore</source>
        <translation>Restaurar</translation>
    </message>
    <message>
        <source> in %1</source>
        <translation> en %1</translation>
    </message>
    <message>
        <source>Kernelpad did not close properly. Restore the playground you were editing%1, saved at %2?</source>
        <translation>Kernelpad no se cerró correctamente. ¿Restaurar el banco de pruebas que estabas editando%1, guardado a las %2?</translation>
    </message>
    <message>
        <source>Keep for Later</source>
        <translation>Guardar para después</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>Descartar</translation>
    </message>
</context>
<context>
    <name>ResultsView</name>
    <message>
        <source>Run a kernel to see its outputs here.</source>
        <translation>Ejecuta un kernel para ver aquí sus salidas.</translation>
    </message>
    <message>
        <source>Could not save &apos;%1&apos; to %2: there is no output of that name</source>
        <translation>No se pudo guardar «%1» en %2: no hay ninguna salida con ese nombre</translation>
    </message>
    <message>
        <source>Could not save &apos;%1&apos; to %2: %3</source>
        <translation>No se pudo guardar «%1» en %2: %3</translation>
    </message>
    <message>
        <source>Saved &apos;%1&apos; to %2</source>
        <translation>«%1» guardado en %2</translation>
    </message>
    <message>
        <source>Could not save the plot of &apos;%1&apos; to %2: there is no output of that name</source>
        <translation>No se pudo guardar el gráfico de «%1» en %2: no hay ninguna salida con ese nombre</translation>
    </message>
    <message>
        <source>Could not save the plot of &apos;%1&apos; to %2: %3</source>
        <translation>No se pudo guardar el gráfico de «%1» en %2: %3</translation>
    </message>
    <message>
        <source>Saved the plot of &apos;%1&apos; to %2</source>
        <translation>Gráfico de «%1» guardado en %2</translation>
    </message>
    <message>
        <source>Save %1</source>
        <translation>Guardar %1</translation>
    </message>
    <message>
        <source>NumPy array (*.npy);;Comma-separated values (*.csv)</source>
        <translation>Array de NumPy (*.npy);;Valores separados por comas (*.csv)</translation>
    </message>
    <message>
        <source>Save the plot of %1</source>
        <translation>Guardar el gráfico de %1</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>Imagen PNG (*.png);;Dibujo SVG (*.svg);;Documento PDF (*.pdf)</translation>
    </message>
    <message>
        <source>These outputs are from an earlier run: %1</source>
        <translation>Estas salidas son de una ejecución anterior: %1</translation>
    </message>
</context>
<context>
    <name>RunActions</name>
    <message>
        <source>repeat </source>
        <translation>repetir </translation>
    </message>
    <message>
        <source>Timed runs: the timings show their spread</source>
        <translation>Ejecuciones cronometradas: los tiempos muestran su dispersión</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>E&amp;jecutar</translation>
    </message>
    <message>
        <source>Run the kernel (F5, Ctrl+R)</source>
        <translation>Ejecutar el kernel (F5, Ctrl+R)</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>&amp;Detener</translation>
    </message>
    <message>
        <source>Stop the run (Esc, Shift+F5)</source>
        <translation>Detener la ejecución (Esc, Shift+F5)</translation>
    </message>
    <message>
        <source>&amp;Compile</source>
        <translation>&amp;Compilar</translation>
    </message>
    <message>
        <source>Compile now (Ctrl+B); it also compiles when you pause typing</source>
        <translation>Compilar ahora (Ctrl+B); también se compila cuando dejas de escribir</translation>
    </message>
    <message>
        <source>S&amp;weep</source>
        <translation>&amp;Barrido</translation>
    </message>
    <message>
        <source>Run the kernel over a range of sizes on each backend and plot GPU against CPU (F6)</source>
        <translation>Ejecutar el kernel con un rango de tamaños en cada backend y comparar GPU y CPU en un gráfico (F6)</translation>
    </message>
    <message>
        <source>Check &amp;Bounds on the CPU</source>
        <translation>Comprobar &amp;límites en la CPU</translation>
    </message>
    <message>
        <source>The CPU backend checks every array index and names the thread and line of the first out-of-bounds access</source>
        <translation>El backend de CPU comprueba cada índice de array e indica el hilo y la línea del primer acceso fuera de límites</translation>
    </message>
    <message>
        <source>&amp;Time Limit...</source>
        <translation>&amp;Tiempo límite...</translation>
    </message>
    <message>
        <source>Time limit</source>
        <translation>Tiempo límite</translation>
    </message>
    <message>
        <source>Stop a run after this many seconds:</source>
        <translation>Detener una ejecución después de estos segundos:</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Ejecutar</translation>
    </message>
    <message>
        <source>Stop S&amp;weep</source>
        <translation>Detener &amp;barrido</translation>
    </message>
    <message>
        <source>Check Bounds on the CPU</source>
        <translation>Comprobar límites en la CPU</translation>
    </message>
    <message>
        <source>Show Compiled &amp;Code</source>
        <translation>Mostrar el código &amp;compilado</translation>
    </message>
    <message>
        <source>The PTX and SASS the kernel compiles to, with each kernel&apos;s registers and spills (F7)</source>
        <translation>El PTX y el SASS en que se compila el kernel, con los registros y los desbordamientos de cada kernel (F7)</translation>
    </message>
</context>
<context>
    <name>RunController</name>
    <message>
        <source>The playground</source>
        <translation>El banco de pruebas</translation>
    </message>
    <message>
        <source>No __global__ function in the text yet.</source>
        <translation>Todavía no hay ninguna función __global__ en el texto.</translation>
    </message>
    <message>
        <source>The playground runs &quot;%1&quot;, which the text no longer declares (it declares %2).</source>
        <translation>El banco de pruebas ejecuta «%1», que el texto ya no declara (declara %2).</translation>
    </message>
    <message>
        <source>Compiling...</source>
        <translation>Compilando...</translation>
    </message>
    <message>
        <source>Compiled</source>
        <translation>Compilado</translation>
    </message>
    <message>
        <source>Running on %1...</source>
        <translation>Ejecutando en %1...</translation>
    </message>
    <message>
        <source>Stopping...</source>
        <translation>Deteniendo...</translation>
    </message>
    <message>
        <source>Run failed</source>
        <translation>La ejecución falló</translation>
    </message>
    <message>
        <source>check passed</source>
        <translation>comprobación superada</translation>
    </message>
    <message>
        <source>not checked: %1</source>
        <translation>sin comprobar: %1</translation>
    </message>
    <message>
        <source>Ran in %1 s, %2</source>
        <translation>Ejecutado en %1 s, %2</translation>
    </message>
    <message>
        <source>not checked</source>
        <translation>sin comprobar</translation>
    </message>
    <message>
        <source>Sweep of %1: %2 from %3 to %4 on %5</source>
        <translation>Barrido de %1: %2 de %3 a %4 en %5</translation>
    </message>
    <message>
        <source>Not swept: the kernel does not compile (see Problems).</source>
        <translation>Sin barrido: el kernel no compila (ver Problemas).</translation>
    </message>
    <message>
        <source>Sweep: %1</source>
        <translation>Barrido: %1</translation>
    </message>
    <message>
        <source>No sandbox on this machine</source>
        <translation>Sin entorno aislado en este equipo</translation>
    </message>
    <message>
        <source>%1 did not run: %2

Run it anyway, with access to your files and the network?</source>
        <translation>%1 no se ejecutó: %2

¿Ejecutarlo de todos modos, con acceso a tus archivos y a la red?</translation>
    </message>
    <message>
        <source>Run Anyway</source>
        <translation>Ejecutar de todos modos</translation>
    </message>
    <message>
        <source>Always Run This File</source>
        <translation>Ejecutar siempre este archivo</translation>
    </message>
    <message>
        <source>Not run without the sandbox, as you chose.</source>
        <translation>No se ejecutó sin el entorno aislado, como elegiste.</translation>
    </message>
    <message>
        <source>Ran</source>
        <translation>Ejecutado</translation>
    </message>
    <message>
        <source>The playground cannot run</source>
        <translation>El banco de pruebas no se puede ejecutar</translation>
    </message>
    <message>
        <source>The arguments or the launch do not fit the kernel</source>
        <translation>Los argumentos o el lanzamiento no encajan con el kernel</translation>
    </message>
    <message>
        <source>The kernel did not compile</source>
        <translation>El kernel no compiló</translation>
    </message>
    <message>
        <source>The kernel crashed</source>
        <translation>El kernel se cerró inesperadamente</translation>
    </message>
    <message>
        <source>Stopped at the time limit</source>
        <translation>Detenido al llegar al tiempo límite</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>Detenido</translation>
    </message>
    <message>
        <source>Out of memory</source>
        <translation>Memoria insuficiente</translation>
    </message>
    <message>
        <source>Not run without a sandbox</source>
        <translation>No se ejecutó sin entorno aislado</translation>
    </message>
    <message>
        <source>Does not compile: 1 error (see Problems)</source>
        <translation>No compila: 1 error (ver Problemas)</translation>
    </message>
    <message>
        <source>Does not compile: %L1 errors (see Problems)</source>
        <translation>No compila: %L1 errores (ver Problemas)</translation>
    </message>
    <message>
        <source>Compiled, with 1 warning (see Problems)</source>
        <translation>Compilado, con 1 advertencia (ver Problemas)</translation>
    </message>
    <message>
        <source>Compiled, with %L1 warnings (see Problems)</source>
        <translation>Compilado, con %L1 advertencias (ver Problemas)</translation>
    </message>
    <message>
        <source>%1 (see Problems for every error).</source>
        <translation>%1 (ver todos los errores en Problemas).</translation>
    </message>
    <message>
        <source>see Problems for why.</source>
        <translation>consulta el motivo en Problemas.</translation>
    </message>
    <message>
        <source>Running the program on %1; timed runs: %2</source>
        <translation>Ejecutando el programa en %1; ejecuciones cronometradas: %2</translation>
    </message>
    <message>
        <source>Running %1 on %2, %3; timed runs: %4</source>
        <translation>Ejecutando %1 en %2, %3; ejecuciones cronometradas: %4</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>The kernel failed while running</source>
        <translation>El kernel falló durante la ejecución</translation>
    </message>
    <message>
        <source>CUDA or Kernelpad reported an error</source>
        <translation>CUDA o Kernelpad informó de un error</translation>
    </message>
    <message>
        <source>not checked: this playground has no reference function, so a run on the CPU has nothing to compare with</source>
        <translation>sin comprobar: este banco de pruebas no tiene función de referencia, así que una ejecución en la CPU no tiene con qué compararse</translation>
    </message>
    <message>
        <source>check failed: the outputs differ (see Results)</source>
        <translation>comprobación fallida: las salidas difieren (ver Resultados)</translation>
    </message>
    <message>
        <source>the kernel</source>
        <translation>el kernel</translation>
    </message>
    <message>
        <source>the program</source>
        <translation>el programa</translation>
    </message>
    <message>
        <source>%1: %2 took %3 (1 timed run), %4. %5</source>
        <translation>%1: %2 tardó %3 (1 ejecución cronometrada), %4. %5</translation>
    </message>
    <message>
        <source>%1: %2 took %3 (median of %L4 timed runs), %5. %6</source>
        <translation>%1: %2 tardó %3 (mediana de %L4 ejecuciones cronometradas), %5. %6</translation>
    </message>
    <message>
        <source>Sweep finished: 1 measurement in %1 s</source>
        <translation>Barrido terminado: 1 medición en %1 s</translation>
    </message>
    <message>
        <source>Sweep finished: %L1 measurements in %2 s</source>
        <translation>Barrido terminado: %L1 mediciones en %2 s</translation>
    </message>
</context>
<context>
    <name>SamplesBrowser</name>
    <message>
        <source>Open</source>
        <translation>Abrir</translation>
    </message>
    <message>
        <source>%1 (has a problem)</source>
        <translation>%1 (tiene un problema)</translation>
    </message>
    <message>
        <source>Choose a sample to read what it shows; open it to run it and read its lesson.</source>
        <translation>Elige un ejemplo para leer qué muestra; ábrelo para ejecutarlo y leer su lección.</translation>
    </message>
</context>
<context>
    <name>ScreenshotTour</name>
    <message>
        <source>cannot write %1</source>
        <translation>no se puede escribir %1</translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation>no se puede crear %1</translation>
    </message>
    <message>
        <source>the sample did not start</source>
        <translation>el ejemplo no se inició</translation>
    </message>
    <message>
        <source>the sample&apos;s run failed</source>
        <translation>la ejecución del ejemplo falló</translation>
    </message>
    <message>
        <source>the sweep did not start: %1</source>
        <translation>el barrido no se inició: %1</translation>
    </message>
    <message>
        <source>the sample&apos;s sweep failed: %1</source>
        <translation>el barrido del ejemplo falló: %1</translation>
    </message>
    <message>
        <source>cannot open %1</source>
        <translation>no se puede abrir %1</translation>
    </message>
</context>
<context>
    <name>StudentWords</name>
    <message>
        <source>argument %1</source>
        <translation>argumento %1</translation>
    </message>
    <message>
        <source>grid %1</source>
        <translation>grid %1</translation>
    </message>
    <message>
        <source>block %1</source>
        <translation>bloque %1</translation>
    </message>
    <message>
        <source>template argument %1</source>
        <translation>argumento de plantilla %1</translation>
    </message>
    <message>
        <source>value %1</source>
        <translation>valor %1</translation>
    </message>
    <message>
        <source>shape</source>
        <translation>forma</translation>
    </message>
    <message>
        <source>first buffer</source>
        <translation>primer buffer</translation>
    </message>
    <message>
        <source>second buffer</source>
        <translation>segundo buffer</translation>
    </message>
    <message>
        <source>shared memory</source>
        <translation>memoria compartida</translation>
    </message>
    <message>
        <source>line \1, column \2</source>
        <translation>línea \1, columna \2</translation>
    </message>
    <message>
        <source>line \1</source>
        <translation>línea \1</translation>
    </message>
    <message>
        <source>the code</source>
        <translation>el código</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>Paso %1</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>paso %1</translation>
    </message>
    <message>
        <source>Buffer %1</source>
        <translation>Buffer %1</translation>
    </message>
    <message>
        <source>Variable \1</source>
        <translation>Variable \1</translation>
    </message>
    <message>
        <source>Block: </source>
        <translation>Bloque: </translation>
    </message>
    <message>
        <source>Grid: </source>
        <translation>Grid: </translation>
    </message>
    <message>
        <source>Dynamic shared memory: </source>
        <translation>Memoria compartida dinámica: </translation>
    </message>
    <message>
        <source>Argument \1: </source>
        <translation>Argumento \1: </translation>
    </message>
    <message>
        <source>Argument %1: </source>
        <translation>Argumento %1: </translation>
    </message>
</context>
<context>
    <name>SweepPlots</name>
    <message>
        <source>elements per second</source>
        <translation>elementos por segundo</translation>
    </message>
    <message>
        <source>GB/s (every array copied in and out once)</source>
        <translation>GB/s (cada array copiado una vez a la entrada y a la salida)</translation>
    </message>
    <message>
        <source>Throughput as elements per second, or as the bytes the kernel must at least move</source>
        <translation>Rendimiento en elementos por segundo, o en los bytes que el kernel debe mover como mínimo</translation>
    </message>
    <message>
        <source>The point of the sweep each backend is placed at on the roofline</source>
        <translation>El punto del barrido en el que se sitúa cada backend en el roofline</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Tiempo</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Mostrar</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>Rendimiento</translation>
    </message>
    <message>
        <source>Point</source>
        <translation>Punto</translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation>Roofline</translation>
    </message>
    <message>
        <source>arithmetic intensity (FLOP/byte)</source>
        <translation>intensidad aritmética (FLOP/byte)</translation>
    </message>
    <message>
        <source>GFLOP/s</source>
        <translation>GFLOP/s</translation>
    </message>
    <message>
        <source>the kernel</source>
        <translation>el kernel</translation>
    </message>
    <message>
        <source>Kernel time</source>
        <translation>Tiempo del kernel</translation>
    </message>
    <message>
        <source>Time of %1 against the %2</source>
        <translation>Tiempo de %1 frente a %2</translation>
    </message>
    <message>
        <source>Run a sweep to see the kernel time against the problem or block size.</source>
        <translation>Ejecuta un barrido para ver el tiempo del kernel frente al tamaño del problema o del bloque.</translation>
    </message>
    <message>
        <source>No point of this sweep ran: there is no time to show.</source>
        <translation>No se ejecutó ningún punto de este barrido: no hay tiempos que mostrar.</translation>
    </message>
    <message>
        <source>A block-size sweep: compare each backend&apos;s line with itself; the fastest block is its lowest point.</source>
        <translation>Un barrido del tamaño de bloque: compara la línea de cada backend consigo misma; el bloque más rápido es su punto más bajo.</translation>
    </message>
    <message>
        <source>Sweep a CUDA backend and a CPU backend (or the reference) to see where the GPU starts to win.</source>
        <translation>Haz un barrido con un backend CUDA y uno de CPU (o la referencia) para ver a partir de dónde gana la GPU.</translation>
    </message>
    <message>
        <source>Throughput of %1 against the %2</source>
        <translation>Rendimiento de %1 frente a %2</translation>
    </message>
    <message>
        <source>GB/s over the kernel time</source>
        <translation>GB/s sobre el tiempo del kernel</translation>
    </message>
    <message>
        <source>elements per second over the kernel time</source>
        <translation>elementos por segundo sobre el tiempo del kernel</translation>
    </message>
    <message>
        <source>Run a sweep to see the throughput against the problem or block size.</source>
        <translation>Ejecuta un barrido para ver el rendimiento frente al tamaño del problema o del bloque.</translation>
    </message>
    <message>
        <source>No point of this sweep ran: there is no throughput to show.</source>
        <translation>No se ejecutó ningún punto de este barrido: no hay rendimiento que mostrar.</translation>
    </message>
    <message>
        <source>Roofline of %1, each backend at its largest point that ran</source>
        <translation>Roofline de %1, cada backend en su mayor punto ejecutado</translation>
    </message>
    <message>
        <source>Roofline of %1 at %2 %3</source>
        <translation>Roofline de %1 en %2 %3</translation>
    </message>
    <message>
        <source>Run a sweep to see the kernel on the roofline.</source>
        <translation>Ejecuta un barrido para ver el kernel en el roofline.</translation>
    </message>
    <message>
        <source>Give the kernel&apos;s floating-point operations as a formula of n (the FLOPs field)
to place it on the roofline.</source>
        <translation>Indica las operaciones en coma flotante del kernel como fórmula de n (el campo FLOPs)
para situarlo en el roofline.</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>No point with a FLOP count and a byte count ran: there is nothing to place on the roofline.</source>
        <translation>No se ejecutó ningún punto con recuento de FLOP y de bytes: no hay nada que situar en el roofline.</translation>
    </message>
    <message>
        <source>%1 roof: %2 GB/s, %3 GFLOP/s</source>
        <translation>Techo de %1: %2 GB/s, %3 GFLOP/s</translation>
    </message>
    <message>
        <source>ridge at %1 FLOP/byte
memory-bound ←   → compute-bound</source>
        <translation>cresta en %1 FLOP/byte
limitado por memoria ←   → limitado por cómputo</translation>
    </message>
    <message>
        <source>largest point that ran</source>
        <translation>mayor punto ejecutado</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Nothing to export yet: run a sweep first.</source>
        <translation>Todavía no hay nada que exportar: ejecuta primero un barrido.</translation>
    </message>
    <message>
        <source>Kernelpad sweep of %1</source>
        <translation>Barrido de %1 en Kernelpad</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>No se pudo escribir %1: %2</translation>
    </message>
    <message>
        <source>kernel time</source>
        <translation>tiempo del kernel</translation>
    </message>
    <message>
        <source>No GPU took part: these are the CPU backend (the kernel&apos;s threads on this machine&apos;s cores) and the C++ reference. They show how the work grows with the size and what more cores give, not how fast a GPU is. For GPU times, run this playground on a machine with an NVIDIA GPU: open it in Kernelpad there, or run
kernelpad-cli sweep %1 --json sweep.json</source>
        <translation>No participó ninguna GPU: estas líneas son el backend de CPU (los hilos del kernel en los núcleos de este equipo) y la referencia en C++. Muestran cómo crece el trabajo con el tamaño y lo que aportan más núcleos, no lo rápida que es una GPU. Para obtener tiempos de GPU, ejecuta este banco de pruebas en un equipo con una GPU NVIDIA: ábrelo allí en Kernelpad, o ejecuta
kernelpad-cli sweep %1 --json sweep.json</translation>
    </message>
    <message>
        <source>&lt;playground&gt;</source>
        <translation>&lt;playground&gt;</translation>
    </message>
    <message>
        <source>No roof: a roof is a processor&apos;s peak bandwidth and FLOP/s, which the CUDA driver gives
for a GPU. Kernelpad does not measure this CPU&apos;s; its points show what the kernel reached.</source>
        <translation>Sin techo: el techo es el ancho de banda y los FLOP/s máximos de un procesador, que el controlador CUDA
da para una GPU. Kernelpad no mide los de esta CPU; sus puntos muestran lo que alcanzó el kernel.</translation>
    </message>
</context>
<context>
    <name>SweepView</name>
    <message>
        <source>Problem size (elements)</source>
        <translation>Tamaño (elementos)</translation>
    </message>
    <message>
        <source>Block size (blockDim.x)</source>
        <translation>Tamaño de bloque (blockDim.x)</translation>
    </message>
    <message>
        <source>Log steps</source>
        <translation>Pasos logarítmicos</translation>
    </message>
    <message>
        <source>Linear steps</source>
        <translation>Pasos lineales</translation>
    </message>
    <message>
        <source>A whole number: 1000, 1,000,000, 1e6, 10k or 2.5M</source>
        <translation>Un número entero: 1000, 1,000,000, 1e6, 10k o 2.5M</translation>
    </message>
    <message>
        <source>Timed runs per point and backend; the plots show their median and spread</source>
        <translation>Ejecuciones cronometradas por punto y backend; los gráficos muestran su mediana y su dispersión</translation>
    </message>
    <message>
        <source>e.g. n, or 2*n^1.5</source>
        <translation>p. ej. n, o 2*n^1.5</translation>
    </message>
    <message>
        <source>Floating-point operations of one launch as a formula of n, the swept array&apos;s elements: what places the kernel on the roofline</source>
        <translation>Operaciones en coma flotante de un lanzamiento como fórmula de n, los elementos del array barrido: lo que sitúa el kernel en el roofline</translation>
    </message>
    <message>
        <source>Run Sweep</source>
        <translation>Ejecutar barrido</translation>
    </message>
    <message>
        <source>Export Plot...</source>
        <translation>Exportar gráfico...</translation>
    </message>
    <message>
        <source>Export CSV...</source>
        <translation>Exportar CSV...</translation>
    </message>
    <message>
        <source>%v of %m</source>
        <translation>%v de %m</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>Barrido</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Desde</translation>
    </message>
    <message>
        <source>To</source>
        <translation>Hasta</translation>
    </message>
    <message>
        <source>Points</source>
        <translation>Puntos</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Pasos</translation>
    </message>
    <message>
        <source>Repeats</source>
        <translation>Repeticiones</translation>
    </message>
    <message>
        <source>FLOPs</source>
        <translation>FLOPs</translation>
    </message>
    <message>
        <source>Backends</source>
        <translation>Backends</translation>
    </message>
    <message>
        <source>From: &quot;%1&quot; is not a number (write 1000, 1e6 or 10k)</source>
        <translation>Desde: «%1» no es un número (escribe 1000, 1e6 o 10k)</translation>
    </message>
    <message>
        <source>To: &quot;%1&quot; is not a number (write 1000, 1e6 or 10k)</source>
        <translation>Hasta: «%1» no es un número (escribe 1000, 1e6 o 10k)</translation>
    </message>
    <message>
        <source>Backends: tick at least one</source>
        <translation>Backends: marca al menos uno</translation>
    </message>
    <message>
        <source>%1 at %2: </source>
        <translation>%1 en %2: </translation>
    </message>
    <message>
        <source>, %1 failed or did not run (see the CSV&apos;s error and check columns)</source>
        <translation>, %1 fallaron o no se ejecutaron (ver las columnas error y check del CSV)</translation>
    </message>
    <message>
        <source>Stop Sweep</source>
        <translation>Detener barrido</translation>
    </message>
    <message>
        <source>Choose a range and the backends, then Run Sweep: the same kernel at every size, on each backend.</source>
        <translation>Elige un rango y los backends, y luego Ejecutar barrido: el mismo kernel con cada tamaño, en cada backend.</translation>
    </message>
    <message>
        <source>Export Plot</source>
        <translation>Exportar gráfico</translation>
    </message>
    <message>
        <source>Pictures (*.png *.svg *.pdf)</source>
        <translation>Imágenes (*.png *.svg *.pdf)</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>Se exportó %1</translation>
    </message>
    <message>
        <source>Export CSV</source>
        <translation>Exportar CSV</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>CPU backend, all cores</source>
        <translation>Backend de CPU, todos los núcleos</translation>
    </message>
    <message>
        <source>CPU backend, one core</source>
        <translation>Backend de CPU, un núcleo</translation>
    </message>
    <message>
        <source>C++ reference</source>
        <translation>Referencia en C++</translation>
    </message>
    <message>
        <source>1 measurement</source>
        <translation>1 medición</translation>
    </message>
    <message>
        <source>%L1 measurements</source>
        <translation>%L1 mediciones</translation>
    </message>
    <message>
        <source>Sweeping: 1 measurement...</source>
        <translation>Barriendo: 1 medición...</translation>
    </message>
    <message>
        <source>Sweeping: %L1 measurements (every point on every backend)...</source>
        <translation>Barriendo: %L1 mediciones (cada punto en cada backend)...</translation>
    </message>
    <message>
        <source>The sweep saved with this playground was stopped before its end: %1</source>
        <translation>El barrido guardado con este banco de pruebas se detuvo antes de terminar: %1</translation>
    </message>
    <message>
        <source>The sweep saved with this playground: %1</source>
        <translation>El barrido guardado con este banco de pruebas: %1</translation>
    </message>
</context>
<context>
    <name>ThemeMenu</name>
    <message>
        <source>&amp;Theme</source>
        <translation>&amp;Tema</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>&amp;Claro</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>&amp;Oscuro</translation>
    </message>
</context>
<context>
    <name>TimingHistoryModel</name>
    <message>
        <source>Run</source>
        <translation>Ejecución</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Hora</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>Etiqueta</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>Backend</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Cambio</translation>
    </message>
    <message>
        <source>Kernel time</source>
        <translation>Tiempo del kernel</translation>
    </message>
    <message>
        <source>Total time</source>
        <translation>Tiempo total</translation>
    </message>
    <message>
        <source>1 timed run</source>
        <translation>1 ejecución cronometrada</translation>
    </message>
    <message>
        <source>Median of %L1 timed runs, from %2 to %3</source>
        <translation>Mediana de %L1 ejecuciones cronometradas, de %2 a %3</translation>
    </message>
</context>
<context>
    <name>TimingsView</name>
    <message>
        <source>Log scale</source>
        <translation>Escala logarítmica</translation>
    </message>
    <message>
        <source>Clear history</source>
        <translation>Borrar historial</translation>
    </message>
    <message>
        <source>No runs yet: the timings of each run appear here.</source>
        <translation>Todavía no hay ejecuciones: aquí aparecen los tiempos de cada una.</translation>
    </message>
    <message>
        <source>run</source>
        <translation>ejecución</translation>
    </message>
    <message>
        <source>Show the bars on a logarithmic scale, for phases that differ by orders of magnitude</source>
        <translation>Mostrar las barras en escala logarítmica, para fases que difieren en órdenes de magnitud</translation>
    </message>
    <message>
        <source>The kernel</source>
        <translation>El kernel</translation>
    </message>
    <message>
        <source> (median of %1 repeats, %2 to %3)</source>
        <translation> (mediana de %1 repeticiones, de %2 a %3)</translation>
    </message>
    <message>
        <source>No timed repeat finished, so there is no kernel time to show.</source>
        <translation>Ninguna repetición cronometrada terminó, así que no hay tiempo de kernel que mostrar.</translation>
    </message>
    <message>
        <source>Against the previous run of %1: %2</source>
        <translation>Frente a la ejecución anterior de %1: %2</translation>
    </message>
    <message>
        <source>The timings of this run cannot be shown: %1
The history keeps the earlier runs.</source>
        <translation>Los tiempos de esta ejecución no se pueden mostrar: %1
El historial conserva las ejecuciones anteriores.</translation>
    </message>
    <message>
        <source> spread</source>
        <translation> (dispersión)</translation>
    </message>
    <message>
        <source>kernel</source>
        <translation>kernel</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1 en %2</translation>
    </message>
    <message>
        <source>Kernelpad timings</source>
        <translation>Tiempos de Kernelpad</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>No se pudo escribir %1: %2</translation>
    </message>
    <message>
        <source>time: bar at the median, whiskers from the fastest to the slowest repeat</source>
        <translation>tiempo: barra en la mediana, bigotes de la repetición más rápida a la más lenta</translation>
    </message>
    <message>
        <source>kernel time (median)</source>
        <translation>tiempo del kernel (mediana)</translation>
    </message>
    <message>
        <source>%1 on %2: kernel %3</source>
        <translation>%1 en %2: kernel %3</translation>
    </message>
    <message>
        <source>, %1 with the copies</source>
        <translation>, %1 con las copias</translation>
    </message>
    <message>
        <source>%1  (%2 to %3, %4 repeats)</source>
        <translation>%1  (de %2 a %3, %4 repeticiones)</translation>
    </message>
    <message>
        <source>The program&apos;s steps</source>
        <translation>Los pasos del programa</translation>
    </message>
    <message>
        <source>time in one run of the program (median): a loop is its steps together</source>
        <translation>tiempo en una ejecución del programa (mediana): un bucle es la suma de sus pasos</translation>
    </message>
    <message>
        <source>The program</source>
        <translation>El programa</translation>
    </message>
    <message>
        <source>a program of 1 launch</source>
        <translation>un programa de 1 lanzamiento</translation>
    </message>
    <message>
        <source>a program of %L1 launches</source>
        <translation>un programa de %L1 lanzamientos</translation>
    </message>
    <message>
        <source>1 launch</source>
        <translation>1 lanzamiento</translation>
    </message>
    <message>
        <source>%L1 launches</source>
        <translation>%L1 lanzamientos</translation>
    </message>
    <message>
        <source>%1 on %2: %3 in %4</source>
        <translation>%1 en %2: %3 en %4</translation>
    </message>
    <message>
        <source>, %L1 passes</source>
        <translation>, %L1 pasadas</translation>
    </message>
    <message>
        <source>, ×%L1</source>
        <translation>, ×%L1</translation>
    </message>
    <message>
        <source>Stopped after 1 timed run.</source>
        <translation>Detenido tras 1 ejecución cronometrada.</translation>
    </message>
    <message>
        <source>Stopped after %L1 timed runs.</source>
        <translation>Detenido tras %L1 ejecuciones cronometradas.</translation>
    </message>
</context>
</TS>
