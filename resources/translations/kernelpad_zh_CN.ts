<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>ArgumentEditor</name>
    <message>
        <source>zeros</source>
        <translation>全零</translation>
    </message>
    <message>
        <source>ones</source>
        <translation>全一</translation>
    </message>
    <message>
        <source>constant</source>
        <translation>常数</translation>
    </message>
    <message>
        <source>range</source>
        <translation>等差序列</translation>
    </message>
    <message>
        <source>uniform random</source>
        <translation>均匀随机</translation>
    </message>
    <message>
        <source>normal random</source>
        <translation>正态随机</translation>
    </message>
    <message>
        <source>formula</source>
        <translation>公式</translation>
    </message>
    <message>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>e.g. 400 or 64, 64</source>
        <translation>例如 400 或 64, 64</translation>
    </message>
    <message>
        <source>start</source>
        <translation>起始值</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步长</translation>
    </message>
    <message>
        <source>low</source>
        <translation>下限</translation>
    </message>
    <message>
        <source>high</source>
        <translation>上限</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>均值</translation>
    </message>
    <message>
        <source>shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>direction</source>
        <translation>方向</translation>
    </message>
    <message>
        <source>fill</source>
        <translation>填充</translation>
    </message>
    <message>
        <source>a number, or size(x), rows(x), cols(x), depth(x)</source>
        <translation>一个数字，或 size(x)、rows(x)、cols(x)、depth(x)</translation>
    </message>
    <message>
        <source>there is no array argument &quot;%1&quot; (arrays: %2)</source>
        <translation>没有名为“%1”的数组参数（数组：%2）</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a number, nor size(x), rows(x), cols(x) or depth(x) of an array x</source>
        <translation>“%1”既不是数字，也不是某个数组 x 的 size(x)、rows(x)、cols(x) 或 depth(x)</translation>
    </message>
    <message>
        <source>the kernel&apos;s parameter is a pointer to const: it can only be read, so it is &quot;in&quot;</source>
        <translation>内核的这个参数是指向 const 的指针：只能读取，因此方向是 &quot;in&quot;</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; is not a number</source>
        <translation>%1：“%2”不是数字</translation>
    </message>
    <message>
        <source>seed: &quot;%1&quot; is not a whole number of 0 or more</source>
        <translation>种子：“%1”不是大于或等于 0 的整数</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>standard deviation</source>
        <translation>标准差</translation>
    </message>
    <message>
        <source>element type</source>
        <translation>元素类型</translation>
    </message>
    <message>
        <source>type the name of a .npy or .csv file in the playground&apos;s folder</source>
        <translation>请输入演练场所在文件夹中的 .npy 或 .csv 文件名</translation>
    </message>
</context>
<context>
    <name>ArgumentPanel</name>
    <message>
        <source>No kernel yet.</source>
        <translation>尚无内核。</translation>
    </message>
    <message>
        <source>The kernel %1 takes no arguments.</source>
        <translation>内核 %1 没有参数。</translation>
    </message>
</context>
<context>
    <name>ArrayPlot</name>
    <message>
        <source>Slice</source>
        <translation>切片</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>重置缩放</translation>
    </message>
    <message>
        <source>Show the whole array again (wheel zooms, drag pans)</source>
        <translation>重新显示整个数组（滚轮缩放，拖动平移）</translation>
    </message>
    <message>
        <source>Component of the vector type to plot</source>
        <translation>要绘制的向量类型分量</translation>
    </message>
    <message>
        <source>First index of the 3-D array: the slice shown</source>
        <translation>三维数组的第一个索引：显示的切片</translation>
    </message>
    <message>
        <source>index</source>
        <translation>索引</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>reference</source>
        <translation>参考值</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>differs</source>
        <translation>不一致</translation>
    </message>
    <message>
        <source>column</source>
        <translation>列</translation>
    </message>
    <message>
        <source>row</source>
        <translation>行</translation>
    </message>
    <message>
        <source>differs from the reference</source>
        <translation>与参考值不一致</translation>
    </message>
    <message>
        <source>An empty array: nothing to plot</source>
        <translation>空数组：没有可绘制的内容</translation>
    </message>
    <message>
        <source>Preparing the plot of %L1 values…</source>
        <translation>正在准备 %L1 个值的图表…</translation>
    </message>
    <message>
        <source>Cannot plot this array: %1</source>
        <translation>无法绘制此数组：%1</translation>
    </message>
    <message>
        <source>Each cell: the mean of %1 × %2 elements</source>
        <translation>每个单元格：%1 × %2 个元素的平均值</translation>
    </message>
    <message>
        <source>1 cell with a value that differs (red, circled)</source>
        <translation>1 个单元格的值不一致（红色，已圈出）</translation>
    </message>
    <message>
        <source>%L1 cells with a value that differs (red)</source>
        <translation>%L1 个单元格的值不一致（红色）</translation>
    </message>
    <message>
        <source>%L1 cells with a value that differs (red, circled)</source>
        <translation>%L1 个单元格的值不一致（红色，已圈出）</translation>
    </message>
    <message>
        <source>Each point: the min and max of %L1 elements</source>
        <translation>每个点：%L1 个元素的最小值和最大值</translation>
    </message>
    <message>
        <source>one value; the reference&apos;s is %1</source>
        <translation>单个值；参考值为 %1</translation>
    </message>
    <message>
        <source>one value</source>
        <translation>单个值</translation>
    </message>
</context>
<context>
    <name>ArrayTableModel</name>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>expected %1 (off by %2)</source>
        <translation>期望 %1（相差 %2）</translation>
    </message>
</context>
<context>
    <name>BackendChooser</name>
    <message>
        <source>CUDA %1: %2</source>
        <translation>CUDA %1：%2</translation>
    </message>
    <message>
        <source>CPU (%1 threads)</source>
        <translation>CPU（%1 个线程）</translation>
    </message>
    <message>
        <source>CUDA unavailable</source>
        <translation>CUDA 不可用</translation>
    </message>
    <message>
        <source>Where the kernel runs</source>
        <translation>内核在何处运行</translation>
    </message>
    <message>
        <source>CUDA is unavailable here: %1</source>
        <translation>此处无法使用 CUDA：%1</translation>
    </message>
    <message>
        <source>no NVIDIA GPU was found on this computer</source>
        <translation>本机上未找到 NVIDIA GPU</translation>
    </message>
</context>
<context>
    <name>CheckSummary</name>
    <message>
        <source>Matches the reference (%1)</source>
        <translation>与参考结果一致（%1）</translation>
    </message>
    <message>
        <source>%L1 of %L2 values differ (%3)</source>
        <translation>%L2 个值中有 %L1 个不一致（%3）</translation>
    </message>
    <message>
        <source>%L1 of %L2 elements differ (%3)</source>
        <translation>%L2 个元素中有 %L1 个不一致（%3）</translation>
    </message>
    <message>
        <source>; first at %1: %2 where the reference has %3</source>
        <translation>；第一个位于 %1：值为 %2，参考值为 %3</translation>
    </message>
    <message>
        <source>Not checked: %1</source>
        <translation>未校验：%1</translation>
    </message>
    <message>
        <source>Not checked: the run had no reference to compare with</source>
        <translation>未校验：本次运行没有可比较的参考结果</translation>
    </message>
    <message>
        <source>Not checked: the run report&apos;s check is unreadable (%1)</source>
        <translation>未校验：无法读取运行报告中的校验结果（%1）</translation>
    </message>
    <message>
        <source>Not checked: the playground&apos;s check does not include this output</source>
        <translation>未校验：演练场的校验不包含此输出</translation>
    </message>
    <message>
        <source>Matches the CPU backend&apos;s run of the kernel (%1)</source>
        <translation>与 CPU 后端运行该内核的结果一致（%1）</translation>
    </message>
    <message>
        <source>; first at %1: %2 where the CPU backend has %3</source>
        <translation>；首个位于 %1：%2，而 CPU 后端为 %3</translation>
    </message>
    <message>
        <source>Every value lies within %1</source>
        <translation>所有值都在 %1 之内</translation>
    </message>
    <message>
        <source>%L1 of %L2 values lie outside %3</source>
        <translation>%L2 个值中有 %L1 个在 %3 之外</translation>
    </message>
    <message>
        <source>; first at %1: %2</source>
        <translation>；第一个位于 %1：%2</translation>
    </message>
    <message>
        <source>largest difference %1, relative %2</source>
        <translation>最大差值 %1，相对差值 %2</translation>
    </message>
    <message>
        <source>, compared in any order</source>
        <translation>，比较时不考虑顺序</translation>
    </message>
    <message>
        <source>, compared row by row, in any order within each row</source>
        <translation>，逐行比较，不考虑每行内的顺序</translation>
    </message>
</context>
<context>
    <name>CompileNotice</name>
    <message>
        <source>This playground compiles its kernel with options it chose: %1. They take effect when you run it.</source>
        <translation>此演练场使用其自带的选项编译内核：%1。运行时生效。</translation>
    </message>
</context>
<context>
    <name>CompiledCodeView</name>
    <message>
        <source>Source lines (-lineinfo)</source>
        <translation>源代码行 (-lineinfo)</translation>
    </message>
    <message>
        <source>Compile</source>
        <translation>编译</translation>
    </message>
    <message>
        <source>The GPU architecture to compile for: its SASS and register counts differ from one to the next</source>
        <translation>编译的目标 GPU 架构：不同架构的 SASS 和寄存器数量各不相同</translation>
    </message>
    <message>
        <source>Compile with -lineinfo, so that each line of PTX and SASS shows the source line it came from</source>
        <translation>使用 -lineinfo 编译，使每行 PTX 和 SASS 都显示其对应的源代码行</translation>
    </message>
    <message>
        <source>Compile the kernel as it is in the editor and show its code</source>
        <translation>按编辑器中的当前内容编译内核并显示其代码</translation>
    </message>
    <message>
        <source>Compile to see the PTX and SASS of the kernel and the registers each kernel uses.</source>
        <translation>编译后即可查看内核的 PTX 和 SASS，以及每个内核使用的寄存器。</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Registers</source>
        <translation>寄存器</translation>
    </message>
    <message>
        <source>Stack</source>
        <translation>栈</translation>
    </message>
    <message>
        <source>Shared</source>
        <translation>共享内存</translation>
    </message>
    <message>
        <source>Spill stores</source>
        <translation>溢出存储</translation>
    </message>
    <message>
        <source>Spill loads</source>
        <translation>溢出加载</translation>
    </message>
    <message>
        <source>Every kernel of the source; choose one to go to its code</source>
        <translation>源代码中的所有内核；选择一个即可跳转到其代码</translation>
    </message>
    <message>
        <source>Registers per thread: more of them leaves room for fewer threads per multiprocessor</source>
        <translation>每个线程的寄存器数：越多，每个多处理器能容纳的线程就越少</translation>
    </message>
    <message>
        <source>Stack frame, bytes per thread (in local memory)</source>
        <translation>栈帧，每个线程的字节数（位于本地内存）</translation>
    </message>
    <message>
        <source>Static shared memory, bytes per block</source>
        <translation>静态共享内存，每个线程块的字节数</translation>
    </message>
    <message>
        <source>Bytes per thread stored to local memory for want of registers</source>
        <translation>因寄存器不足而写入本地内存的每线程字节数</translation>
    </message>
    <message>
        <source>Bytes per thread loaded back from local memory for want of registers</source>
        <translation>因寄存器不足而从本地内存读回的每线程字节数</translation>
    </message>
    <message>
        <source>The SASS, the GPU&apos;s own instructions, appears here.</source>
        <translation>SASS（GPU 自身的指令）将显示在这里。</translation>
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
        <translation>架构(&amp;A)：</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>The GPU&apos;s own architecture; sm_90 on a machine without a GPU</source>
        <translation>本机 GPU 的架构；没有 GPU 的机器上为 sm_90</translation>
    </message>
    <message>
        <source>%1 (this GPU)</source>
        <translation>%1（本机 GPU）</translation>
    </message>
    <message>
        <source>Compiling...</source>
        <translation>正在编译...</translation>
    </message>
    <message>
        <source>Compiling for %1...</source>
        <translation>正在为 %1 编译...</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Tick Source lines to see which source line each line of code comes from.</source>
        <translation>勾选“源代码行”即可查看每行代码来自哪一行源代码。</translation>
    </message>
    <message>
        <source>Not compiled: %1</source>
        <translation>未编译：%1</translation>
    </message>
    <message>
        <source>Not compiled: %1 The code shown is from the last compile.</source>
        <translation>未编译：%1 显示的是上一次编译的代码。</translation>
    </message>
    <message>
        <source>Constant memory: %1 bytes</source>
        <translation>常量内存：%1 字节</translation>
    </message>
    <message>
        <source>Barriers: %1</source>
        <translation>屏障：%1</translation>
    </message>
    <message>
        <source>Default (%1)</source>
        <translation>默认（%1）</translation>
    </message>
    <message>
        <source>The PTX, the compiler&apos;s portable assembly of the kernel, appears here.</source>
        <translation>PTX（编译器为内核生成的可移植汇编）将显示在这里。</translation>
    </message>
    <message>
        <source>The compiler made no SASS (machine code) for this kernel.</source>
        <translation>编译器没有为此内核生成 SASS（机器码）。</translation>
    </message>
    <message>
        <source>%1: 1 kernel, unchanged since the last compile</source>
        <translation>%1：1 个内核，自上次编译以来未更改</translation>
    </message>
    <message>
        <source>%1: %L2 kernels, unchanged since the last compile</source>
        <translation>%1：%L2 个内核，自上次编译以来未更改</translation>
    </message>
    <message>
        <source>%1: 1 kernel, compiled in %2 ms</source>
        <translation>%1：1 个内核，编译用时 %2 ms</translation>
    </message>
    <message>
        <source>%1: %L2 kernels, compiled in %3 ms</source>
        <translation>%1：%L2 个内核，编译用时 %3 ms</translation>
    </message>
    <message>
        <source>No SASS this time: the SASS tab says why.</source>
        <translation>本次没有 SASS：原因见 SASS 标签页。</translation>
    </message>
</context>
<context>
    <name>DockLayout</name>
    <message>
        <source>Samples</source>
        <translation>示例</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Launch</source>
        <translation>启动配置</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Timings</source>
        <translation>计时</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>Compiled Code</source>
        <translation>编译后的代码</translation>
    </message>
</context>
<context>
    <name>FileMenu</name>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Open...</source>
        <translation>打开(&amp;O)...</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Playgrounds and CUDA sources (*.kpad.json *.cu);;All files (*)</source>
        <translation>演练场和 CUDA 源文件 (*.kpad.json *.cu);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;As...</source>
        <translation>另存为(&amp;A)...</translation>
    </message>
    <message>
        <source>Save As</source>
        <translation>另存为</translation>
    </message>
    <message>
        <source>Playgrounds (*.kpad.json);;CUDA source (*.cu)</source>
        <translation>演练场 (*.kpad.json);;CUDA 源文件 (*.cu)</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>Timings &amp;Plot...</source>
        <translation>计时图表(&amp;P)...</translation>
    </message>
    <message>
        <source>Export timings plot</source>
        <translation>导出计时图表</translation>
    </message>
    <message>
        <source>Images (*.png *.svg *.pdf)</source>
        <translation>图像 (*.png *.svg *.pdf)</translation>
    </message>
    <message>
        <source>Run &amp;History (CSV)...</source>
        <translation>运行历史 (CSV)(&amp;H)...</translation>
    </message>
    <message>
        <source>Export run history</source>
        <translation>导出运行历史</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
</context>
<context>
    <name>FindBar</name>
    <message>
        <source>Find (Enter: next, Esc: close)</source>
        <translation>查找（Enter：下一个，Esc：关闭）</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not in the text</source>
        <translation>文本中没有“%1”</translation>
    </message>
</context>
<context>
    <name>GridDrawing</name>
    <message>
        <source>No array argument: nothing to lay the grid over</source>
        <translation>没有数组参数：无法在数据上绘制网格</translation>
    </message>
    <message>
        <source>threads on data</source>
        <translation>处理数据的线程</translation>
    </message>
    <message>
        <source>idle threads</source>
        <translation>空闲线程</translation>
    </message>
    <message>
        <source>data the loop reaches later</source>
        <translation>循环稍后处理的数据</translation>
    </message>
    <message>
        <source>data no thread reaches</source>
        <translation>没有线程处理的数据</translation>
    </message>
</context>
<context>
    <name>HelpDialog</name>
    <message>
        <source>Open Sample</source>
        <translation>打开示例</translation>
    </message>
    <message>
        <source>Kernelpad Help</source>
        <translation>Kernelpad 帮助</translation>
    </message>
    <message>
        <source>The guide is missing from this build (:/help/guide.md).</source>
        <translation>此版本中缺少指南（:/help/guide.md）。</translation>
    </message>
    <message>
        <source>Guide</source>
        <translation>指南</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Lessons</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>Menu</source>
        <translation>菜单</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
</context>
<context>
    <name>HelpMenu</name>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Kernelpad &amp;Guide</source>
        <translation>Kernelpad 指南(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Lessons</source>
        <translation>课程(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;About Kernelpad</source>
        <translation>关于 Kernelpad(&amp;A)</translation>
    </message>
    <message>
        <source>About Kernelpad</source>
        <translation>关于 Kernelpad</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Kernelpad %1&lt;/h3&gt;&lt;p&gt;A desktop playground for CUDA kernels: write a kernel, run it on a GPU or on the CPU, check it against a CPU reference and compare the timings.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Kernelpad %1&lt;/h3&gt;&lt;p&gt;CUDA 内核的桌面演练场：编写内核，在 GPU 或 CPU 上运行，与 CPU 参考实现进行校验，并比较计时。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>Language</name>
    <message>
        <source>Kernelpad will be shown in %1 the next time it starts.</source>
        <translation>下次启动时，Kernelpad 的界面语言将切换为“%1”。</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
</context>
<context>
    <name>LaunchPanel</name>
    <message>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source> B</source>
        <translation> B</translation>
    </message>
    <message>
        <source>Enough blocks to cover the first array argument, x along its last dimension</source>
        <translation>足以覆盖第一个数组参数的线程块数，x 沿其最后一个维度</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>线程块</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>网格</translation>
    </message>
    <message>
        <source>Dynamic shared</source>
        <translation>动态共享内存</translation>
    </message>
    <message>
        <source>%1 = %2 per block; %3, %4, %5 in all</source>
        <translation>%1 = 每个线程块 %2；共 %3、%4、%5</translation>
    </message>
    <message>
        <source>thread</source>
        <translation>个线程</translation>
    </message>
    <message>
        <source>threads</source>
        <translation>个线程</translation>
    </message>
    <message>
        <source>warp</source>
        <translation>个线程束</translation>
    </message>
    <message>
        <source>warps</source>
        <translation>个线程束</translation>
    </message>
    <message>
        <source>block</source>
        <translation>个线程块</translation>
    </message>
    <message>
        <source>blocks</source>
        <translation>个线程块</translation>
    </message>
    <message>
        <source>Occupancy on %1: known once the kernel is compiled</source>
        <translation>%1 上的占用率：内核编译后可知</translation>
    </message>
    <message>
        <source>Occupancy 0%: not one block fits on an SM; %1</source>
        <translation>占用率 0%：一个 SM 上连一个线程块也容纳不下；%1</translation>
    </message>
    <message>
        <source>Occupancy %1: %2 of %3 warps, %4 per SM; limited by %5</source>
        <translation>占用率 %1：%3 个线程束中的 %2 个，每个 SM %4；受限于 %5</translation>
    </message>
    <message>
        <source>Occupancy: %1</source>
        <translation>占用率：%1</translation>
    </message>
    <message>
        <source>element</source>
        <translation>个元素</translation>
    </message>
    <message>
        <source>elements</source>
        <translation>个元素</translation>
    </message>
    <message>
        <source>The kernel reads gridDim: a grid-stride loop, so its %1 reach all %2 in one turn</source>
        <translation>内核读取了 gridDim：这是网格跨步循环，因此它的 %1 一轮即可处理全部 %2</translation>
    </message>
    <message>
        <source>The kernel reads gridDim: a grid-stride loop, so its %1 reach all %2, about %3 each</source>
        <translation>内核读取了 gridDim：这是网格跨步循环，因此它的 %1 可处理全部 %2，每个约 %3</translation>
    </message>
    <message>
        <source>; %1 (%2)</source>
        <translation>；%1（%2）</translation>
    </message>
    <message>
        <source>idle thread</source>
        <translation>个空闲线程</translation>
    </message>
    <message>
        <source>idle threads</source>
        <translation>个空闲线程</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>; %1 (%2) past the grid: no thread reaches them</source>
        <translation>；%1（%2）超出网格：没有线程处理它们</translation>
    </message>
    <message>
        <source>grid %1×%2×%3, block %4×%5×%6</source>
        <translation>网格 %1×%2×%3，线程块 %4×%5×%6</translation>
    </message>
    <message>
        <source>Over %1: </source>
        <translation>数组 %1：</translation>
    </message>
    <message>
        <source>The grid has one thread for every %1 elements: if each thread takes %1, all %2 are reached; %3 (%4)</source>
        <translation>网格中每 %1 个元素对应一个线程：若每个线程处理 %1 个，即可处理全部 %2；%3（%4）</translation>
    </message>
    <message>
        <source>launch.grid: &quot;auto&quot; sizes the grid to the first array argument, but this kernel takes no array: untick auto and give the grid size</source>
        <translation>launch.grid: “自动”会按第一个数组参数确定网格大小，但此内核没有数组参数：请取消勾选“自动”并指定网格大小</translation>
    </message>
    <message>
        <source>Occupancy: applies only when the kernel runs on a GPU</source>
        <translation>占用率：仅在内核于 GPU 上运行时适用</translation>
    </message>
</context>
<context>
    <name>LessonView</name>
    <message>
        <source>*This playground has no lesson.* The samples (View &gt; Samples) each come with one.</source>
        <translation>*此演练场没有课程。* 每个示例（视图 &gt; 示例）都附带一节课程。</translation>
    </message>
    <message>
        <source>*The lesson %1 cannot be read: %2.*</source>
        <translation>*无法读取课程 %1：%2。*</translation>
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
        <translation>打开</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Find...</source>
        <translation>查找(&amp;F)...</translation>
    </message>
    <message>
        <source>Find &amp;Next</source>
        <translation>查找下一个(&amp;N)</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Reset Zoom</source>
        <translation>重置缩放(&amp;Z)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>%1%2 — Kernelpad</source>
        <translation>%1%2 — Kernelpad</translation>
    </message>
    <message>
        <source>Problems (%1)</source>
        <translation>问题 (%1)</translation>
    </message>
    <message>
        <source>The playground&apos;s sweep settings were not read: %1</source>
        <translation>未能读取演练场的扫描设置：%1</translation>
    </message>
    <message>
        <source>Not swept: %1</source>
        <translation>未扫描：%1</translation>
    </message>
    <message>
        <source>the last run did not compile (see Problems).</source>
        <translation>上一次运行未能编译（请查看“问题”）。</translation>
    </message>
    <message>
        <source>the last run failed (see Output).</source>
        <translation>上一次运行失败（请查看“输出”）。</translation>
    </message>
    <message>
        <source>Not run. %1</source>
        <translation>未运行。%1</translation>
    </message>
    <message>
        <source>the last run was not started (%1).</source>
        <translation>上一次运行未能启动（%1）。</translation>
    </message>
    <message>
        <source>Reset La&amp;yout</source>
        <translation>重置布局(&amp;Y)</translation>
    </message>
    <message>
        <source>Kernelpad cannot keep playground code away from your files on this computer (%1), so it asks before it runs a file you did not write.</source>
        <translation>在本机上，Kernelpad 无法阻止演练场中的代码访问您的文件（%1），因此运行不是您编写的文件之前，会先询问您。</translation>
    </message>
</context>
<context>
    <name>OutputPane</name>
    <message>
        <source>Save array…</source>
        <translation>保存数组…</translation>
    </message>
    <message>
        <source>Save this output as .npy or .csv</source>
        <translation>将此输出保存为 .npy 或 .csv</translation>
    </message>
    <message>
        <source>Save plot…</source>
        <translation>保存图表…</translation>
    </message>
    <message>
        <source>Save the plot as .png, .svg or .pdf</source>
        <translation>将图表保存为 .png、.svg 或 .pdf</translation>
    </message>
    <message>
        <source>Go to index: 12 or 3, 4</source>
        <translation>转到索引：12 或 3, 4</translation>
    </message>
    <message>
        <source>An element&apos;s indices, one per dimension, or its flat index; Enter to go</source>
        <translation>元素的索引（每个维度一个）或其扁平索引；按 Enter 跳转</translation>
    </message>
    <message>
        <source> · rows %L1–%L2 of %L3</source>
        <translation> · 第 %L1–%L2 行，共 %L3 行</translation>
    </message>
    <message>
        <source> · columns %L1–%L2 of %L3</source>
        <translation> · 第 %L1–%L2 列，共 %L3 列</translation>
    </message>
    <message>
        <source>Scrolling past the end of the rows shown moves on through the array; type an index to jump</source>
        <translation>滚动超过所显示的行时会继续浏览数组；输入索引可直接跳转</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an index</source>
        <translation>“%1”不是索引</translation>
    </message>
    <message>
        <source>no element [%1] in shape %2</source>
        <translation>形状 %2 中没有元素 [%1]</translation>
    </message>
    <message>
        <source>the file name should end in .npy or .csv</source>
        <translation>文件名应以 .npy 或 .csv 结尾</translation>
    </message>
    <message>
        <source>the file name should end in .png, .svg or .pdf</source>
        <translation>文件名应以 .png、.svg 或 .pdf 结尾</translation>
    </message>
    <message>
        <source>the plot could not be drawn as %1</source>
        <translation>无法将图表绘制为 %1</translation>
    </message>
</context>
<context>
    <name>PlaygroundDocument</name>
    <message>
        <source>Save As</source>
        <translation>另存为</translation>
    </message>
    <message>
        <source>Playgrounds (*.kpad.json);;CUDA source (*.cu)</source>
        <translation>演练场 (*.kpad.json);;CUDA 源文件 (*.cu)</translation>
    </message>
    <message>
        <source>untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <source>Could not save %1: %2. The file on disk is unchanged.</source>
        <translation>无法保存 %1：%2。磁盘上的文件未被更改。</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>%1 has changes that are not saved. Save them?</source>
        <translation>%1 有尚未保存的更改。是否保存？</translation>
    </message>
    <message>
        <source>The playground</source>
        <translation>此演练场</translation>
    </message>
    <message>
        <source>Autosave failed: %1</source>
        <translation>自动保存失败：%1</translation>
    </message>
    <message>
        <source>Not saved: %1 was kept as it is. Save under another name.</source>
        <translation>未保存：%1 保持原样。请用其他名称保存。</translation>
    </message>
    <message>
        <source>Could not save the playground %1: %2. The file on disk is unchanged.</source>
        <translation>无法保存演练场 %1：%2。磁盘上的文件未被更改。</translation>
    </message>
    <message>
        <source>Could not save the playground %1 with its kernel source %2: %3. Both files on disk are unchanged.</source>
        <translation>无法保存演练场 %1 及其内核源文件 %2：%3。磁盘上的两个文件都未被更改。</translation>
    </message>
    <message>
        <source>Saved the playground as %1: a playground&apos;s name ends in .kpad.json</source>
        <translation>已将演练场保存为 %1：演练场的文件名以 .kpad.json 结尾</translation>
    </message>
    <message>
        <source> (the arguments and launch are not in a .cu file: save as .kpad.json to keep them)</source>
        <translation>（参数和启动配置不会保存在 .cu 文件中：另存为 .kpad.json 以保留它们）</translation>
    </message>
    <message>
        <source>Replace file</source>
        <translation>替换文件</translation>
    </message>
    <message>
        <source>%1 already exists, and this playground was not opened from it. Replace it?</source>
        <translation>%1 已存在，且此演练场不是从它打开的。是否替换？</translation>
    </message>
    <message>
        <source>The restored playground did not read (%1): only its text is restored.</source>
        <translation>恢复的演练场无法读取（%1）：只恢复了它的文本。</translation>
    </message>
    <message>
        <source>%1 cannot be opened (%2): the restored text is untitled, save it under a name.</source>
        <translation>无法打开 %1（%2）：恢复的文本未命名，请用一个名称保存。</translation>
    </message>
    <message>
        <source>it is not there</source>
        <translation>它不存在</translation>
    </message>
    <message>
        <source>Restored the playground %1 saved at %2</source>
        <translation>已恢复保存于 %2 的演练场 %1</translation>
    </message>
    <message>
        <source>Save Your Copy of the Sample</source>
        <translation>保存您的示例副本</translation>
    </message>
    <message>
        <source>Your changes to the sample %1 are not saved. Save them as a copy of your own? (The sample itself stays as it came.)</source>
        <translation>您对示例 %1 的更改尚未保存。是否将其保存为您自己的副本？（示例本身保持原样。）</translation>
    </message>
</context>
<context>
    <name>PlotExport</name>
    <message>
        <source>Cannot export to %1: it has no extension; choose a file name ending in .png, .svg or .pdf</source>
        <translation>无法导出到 %1：它没有扩展名；请选择以 .png、.svg 或 .pdf 结尾的文件名</translation>
    </message>
    <message>
        <source>Cannot export a .%1 file: choose a file name ending in .png, .svg or .pdf</source>
        <translation>无法导出 .%1 文件：请选择以 .png、.svg 或 .pdf 结尾的文件名</translation>
    </message>
    <message>
        <source>the plot could not be drawn</source>
        <translation>无法绘制图表</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>PresentationMode</name>
    <message>
        <source>&amp;Presentation Mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>Large fonts, high contrast and full screen, for a classroom (F11)</source>
        <translation>大字体、高对比度、全屏显示，适合课堂（F11）</translation>
    </message>
    <message>
        <source>Presentation mode: F11 leaves it</source>
        <translation>演示模式：按 F11 退出</translation>
    </message>
</context>
<context>
    <name>ProblemsView</name>
    <message>
        <source>Severity</source>
        <translation>严重程度</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>note</source>
        <translation>注释</translation>
    </message>
</context>
<context>
    <name>ProgramController</name>
    <message>
        <source>A program&apos;s launches have their grids and blocks in its steps: see the Steps panel</source>
        <translation>程序中各次启动的网格和线程块在其步骤中设置：请查看“步骤”面板</translation>
    </message>
</context>
<context>
    <name>ProgramPanel</name>
    <message>
        <source>Duplicate</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Make it a program</source>
        <translation>转换为程序</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行次数</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>&amp;Launch a kernel</source>
        <translation>启动内核(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Copy between buffers</source>
        <translation>在缓冲区之间拷贝(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Fill a buffer</source>
        <translation>填充缓冲区(&amp;F)</translation>
    </message>
    <message>
        <source>S&amp;wap two buffers</source>
        <translation>交换两个缓冲区(&amp;W)</translation>
    </message>
    <message>
        <source>Write a __constant__ or __device__ s&amp;ymbol</source>
        <translation>写入 __constant__ 或 __device__ 符号(&amp;Y)</translation>
    </message>
    <message>
        <source>Set &amp;variables</source>
        <translation>设置变量(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Repeat steps</source>
        <translation>重复步骤(&amp;R)</translation>
    </message>
    <message>
        <source>Scratch &amp;buffer</source>
        <translation>临时缓冲区(&amp;B)</translation>
    </message>
    <message>
        <source>Vi&amp;ew of a buffer</source>
        <translation>缓冲区视图(&amp;E)</translation>
    </message>
    <message>
        <source>Move the step up; at the top of a loop it leaves the loop, under a loop it enters it</source>
        <translation>将步骤上移；位于循环开头时会移出循环，位于循环正下方时会移入循环</translation>
    </message>
    <message>
        <source>Move the step down; at the end of a loop it leaves the loop, above a loop it enters it</source>
        <translation>将步骤下移；位于循环末尾时会移出循环，位于循环正上方时会移入循环</translation>
    </message>
    <message>
        <source>This playground launches one kernel once. A program launches kernels in steps, with scratch buffers, copies, loops and constant memory, as a notebook&apos;s host code does around its launches: a reduction in passes, a scan of the partial sums, a stencil repeated over two swapped buffers.</source>
        <translation>此演练场只启动一个内核一次。程序则分步骤启动内核，并可使用临时缓冲区、拷贝、循环和常量内存，就像 notebook 中围绕内核启动的主机代码那样：分多轮进行的归约、对部分和求前缀和（scan）、在两个互相交换的缓冲区上反复执行的模板计算（stencil）。</translation>
    </message>
    <message>
        <source>The launch becomes the program&apos;s first step; the arguments stay as they are</source>
        <translation>当前的内核启动成为程序的第一个步骤；参数保持不变</translation>
    </message>
    <message>
        <source>Variables: %1</source>
        <translation>变量：%1</translation>
    </message>
    <message>
        <source>Buffers</source>
        <translation>缓冲区</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Scratch buffers live where the kernels run, start as zeros and are never copied back; a view is a part of another buffer. Add ▸ Scratch buffer or View.</source>
        <translation>临时缓冲区位于内核运行的地方，初始值全为零，且不会被拷回；视图是另一个缓冲区的一部分。添加 ▸ “临时缓冲区”或“缓冲区视图”。</translation>
    </message>
    <message>
        <source>Select a step to edit it. Add puts a new step after the selection, or inside it when it is a loop.</source>
        <translation>选择一个步骤即可编辑。“添加”会把新步骤放在所选步骤之后；所选步骤是循环时，则放在循环内部。</translation>
    </message>
    <message>
        <source>Variables</source>
        <translation>变量</translation>
    </message>
    <message>
        <source>block = 256; passes = 10</source>
        <translation>block = 256; passes = 10</translation>
    </message>
    <message>
        <source>Numbers the steps use by name, separated by &apos;;&apos;. A block-size sweep sets &quot;block&quot;.</source>
        <translation>步骤中按名称使用的数值，以“;”分隔。线程块大小扫描会设置“block”。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>View of</source>
        <translation>所在缓冲区</translation>
    </message>
    <message>
        <source>From element</source>
        <translation>起始元素</translation>
    </message>
    <message>
        <source>Elements</source>
        <translation>元素数</translation>
    </message>
    <message>
        <source>to the end</source>
        <translation>直到末尾</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>1 to 3 dimensions, each a number or an expression: divup(size(a), 512)</source>
        <translation>1 到 3 个维度，每个维度是一个数字或表达式：divup(size(a), 512)</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>what the step is for (optional)</source>
        <translation>此步骤的用途（可选）</translation>
    </message>
    <message>
        <source>From</source>
        <translation>源</translation>
    </message>
    <message>
        <source>To</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>all that fit</source>
        <translation>能容纳的全部元素</translation>
    </message>
    <message>
        <source>Buffer</source>
        <translation>缓冲区</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>With</source>
        <translation>交换对象</translation>
    </message>
    <message>
        <source>Symbol</source>
        <translation>符号</translation>
    </message>
    <message>
        <source>From buffer</source>
        <translation>来自缓冲区</translation>
    </message>
    <message>
        <source>Or values</source>
        <translation>或直接给出值</translation>
    </message>
    <message>
        <source>0.25, 0.5, 0.25</source>
        <translation>0.25, 0.5, 0.25</translation>
    </message>
    <message>
        <source>Set</source>
        <translation>赋值</translation>
    </message>
    <message>
        <source>name = expression, separated by &apos;;&apos;: every value is worked out first, then every name is set</source>
        <translation>名称 = 表达式，以“;”分隔：先算出所有的值，再给所有名称赋值</translation>
    </message>
    <message>
        <source>Times</source>
        <translation>次数</translation>
    </message>
    <message>
        <source>a number of passes, or leave empty and give While</source>
        <translation>循环轮数；或留空并填写“循环条件”</translation>
    </message>
    <message>
        <source>While</source>
        <translation>循环条件</translation>
    </message>
    <message>
        <source>m &gt; 1</source>
        <translation>m &gt; 1</translation>
    </message>
    <message>
        <source>Counter</source>
        <translation>计数器</translation>
    </message>
    <message>
        <source>a variable that counts the passes (optional)</source>
        <translation>记录循环轮数的变量（可选）</translation>
    </message>
    <message>
        <source>Counter from</source>
        <translation>计数器初值</translation>
    </message>
    <message>
        <source>Then</source>
        <translation>每轮之后</translation>
    </message>
    <message>
        <source>counter + 1</source>
        <translation>计数器 + 1</translation>
    </message>
    <message>
        <source>At most</source>
        <translation>最多</translation>
    </message>
    <message>
        <source>%L1 passes</source>
        <translation>%L1 轮</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>模板参数</translation>
    </message>
    <message>
        <source>float, block (for a template kernel)</source>
        <translation>float, block（用于模板内核）</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Enough blocks to cover the first pointer argument</source>
        <translation>足以覆盖第一个指针参数的线程块数</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>网格</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>线程块</translation>
    </message>
    <message>
        <source>Shared bytes</source>
        <translation>共享内存字节数</translation>
    </message>
    <message>
        <source>Arguments: a buffer (or buffer + offset) for each pointer, a number or an expression for each value</source>
        <translation>参数：每个指针对应一个缓冲区（或缓冲区 + 偏移量），每个值对应一个数字或表达式</translation>
    </message>
    <message>
        <source>Arguments (the source declares no kernel of this name)</source>
        <translation>参数（源代码中没有声明这个名称的内核）</translation>
    </message>
    <message>
        <source>argument %1</source>
        <translation>参数 %1</translation>
    </message>
    <message>
        <source>×%L1</source>
        <translation>×%L1</translation>
    </message>
    <message>
        <source>Variables (none)</source>
        <translation>变量（无）</translation>
    </message>
    <message>
        <source>1 pass</source>
        <translation>1 轮</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>give 1 to 3 dimensions, like 400 or 64, 64</source>
        <translation>请给出 1 到 3 个维度，例如 400 或 64, 64</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a positive whole number of at most 2^36</source>
        <translation>“%1”不是不超过 2^36 的正整数</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>未测量</translation>
    </message>
    <message>
        <source>%1 did not run at %2 %3: %4</source>
        <translation>%1 在 %2 %3 处未运行：%4</translation>
    </message>
    <message>
        <source>%1 did not run at %2 points, the first at %3 %4: %5</source>
        <translation>%1 有 %2 个点未能运行，第一个位于 %3 %4：%5</translation>
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
        <translation>（达到上限的 %1%）</translation>
    </message>
    <message>
        <source>%1 spread</source>
        <translation>%1 离散范围</translation>
    </message>
    <message>
        <source>%1 with copies</source>
        <translation>%1（含拷贝）</translation>
    </message>
    <message>
        <source>%1 peak: %2 GB/s</source>
        <translation>%1 峰值：%2 GB/s</translation>
    </message>
    <message>
        <source>copy in</source>
        <translation>拷入</translation>
    </message>
    <message>
        <source>host → device</source>
        <translation>主机 → 设备</translation>
    </message>
    <message>
        <source>kernel (CPU)</source>
        <translation>内核 (CPU)</translation>
    </message>
    <message>
        <source>kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>copy out</source>
        <translation>拷出</translation>
    </message>
    <message>
        <source>device → host</source>
        <translation>设备 → 主机</translation>
    </message>
    <message>
        <source>CPU backend</source>
        <translation>CPU 后端</translation>
    </message>
    <message>
        <source>CPU reference</source>
        <translation>CPU 参考实现</translation>
    </message>
    <message>
        <source>%1: view of %2 from %3%4</source>
        <translation>%1：%2 的视图，从 %3 开始%4</translation>
    </message>
    <message>
        <source>, %1 elements</source>
        <translation>，共 %1 个元素</translation>
    </message>
    <message>
        <source>program (CPU)</source>
        <translation>程序（CPU）</translation>
    </message>
    <message>
        <source>program</source>
        <translation>程序</translation>
    </message>
    <message>
        <source>The sweep was stopped: its later points are missing.</source>
        <translation>扫描已停止：缺少后面的点。</translation>
    </message>
</context>
<context>
    <name>RecoveryOffer</name>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source> in %1</source>
        <translation>（位于 %1）</translation>
    </message>
    <message>
        <source>Kernelpad did not close properly. Restore the playground you were editing%1, saved at %2?</source>
        <translation>Kernelpad 未正常关闭。是否恢复您正在编辑的演练场%1（保存于 %2）？</translation>
    </message>
    <message>
        <source>Keep for Later</source>
        <translation>留待以后</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>丢弃</translation>
    </message>
</context>
<context>
    <name>ResultsView</name>
    <message>
        <source>Run a kernel to see its outputs here.</source>
        <translation>运行内核后，其输出将显示在这里。</translation>
    </message>
    <message>
        <source>Could not save &apos;%1&apos; to %2: there is no output of that name</source>
        <translation>无法将“%1”保存到 %2：没有这个名称的输出</translation>
    </message>
    <message>
        <source>Could not save &apos;%1&apos; to %2: %3</source>
        <translation>无法将“%1”保存到 %2：%3</translation>
    </message>
    <message>
        <source>Saved &apos;%1&apos; to %2</source>
        <translation>已将“%1”保存到 %2</translation>
    </message>
    <message>
        <source>Could not save the plot of &apos;%1&apos; to %2: there is no output of that name</source>
        <translation>无法将“%1”的图表保存到 %2：没有这个名称的输出</translation>
    </message>
    <message>
        <source>Could not save the plot of &apos;%1&apos; to %2: %3</source>
        <translation>无法将“%1”的图表保存到 %2：%3</translation>
    </message>
    <message>
        <source>Saved the plot of &apos;%1&apos; to %2</source>
        <translation>已将“%1”的图表保存到 %2</translation>
    </message>
    <message>
        <source>Save %1</source>
        <translation>保存 %1</translation>
    </message>
    <message>
        <source>NumPy array (*.npy);;Comma-separated values (*.csv)</source>
        <translation>NumPy 数组 (*.npy);;逗号分隔值 (*.csv)</translation>
    </message>
    <message>
        <source>Save the plot of %1</source>
        <translation>保存 %1 的图表</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图像 (*.png);;SVG 矢量图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>These outputs are from an earlier run: %1</source>
        <translation>这些输出来自之前的一次运行：%1</translation>
    </message>
</context>
<context>
    <name>RunActions</name>
    <message>
        <source>repeat </source>
        <translation>重复 </translation>
    </message>
    <message>
        <source>Timed runs: the timings show their spread</source>
        <translation>计时运行次数：计时会显示其离散程度</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>Run the kernel (F5, Ctrl+R)</source>
        <translation>运行内核（F5，Ctrl+R）</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>Stop the run (Esc, Shift+F5)</source>
        <translation>停止运行（Esc，Shift+F5）</translation>
    </message>
    <message>
        <source>&amp;Compile</source>
        <translation>编译(&amp;C)</translation>
    </message>
    <message>
        <source>Compile now (Ctrl+B); it also compiles when you pause typing</source>
        <translation>立即编译（Ctrl+B）；停止输入时也会自动编译</translation>
    </message>
    <message>
        <source>S&amp;weep</source>
        <translation>扫描(&amp;W)</translation>
    </message>
    <message>
        <source>Run the kernel over a range of sizes on each backend and plot GPU against CPU (F6)</source>
        <translation>在每个后端上以一系列规模运行内核，并绘制 GPU 与 CPU 的对比图（F6）</translation>
    </message>
    <message>
        <source>Check &amp;Bounds on the CPU</source>
        <translation>在 CPU 上检查越界(&amp;B)</translation>
    </message>
    <message>
        <source>The CPU backend checks every array index and names the thread and line of the first out-of-bounds access</source>
        <translation>CPU 后端会检查每个数组索引，并指出首次越界访问所在的线程和行</translation>
    </message>
    <message>
        <source>&amp;Time Limit...</source>
        <translation>时间限制(&amp;T)...</translation>
    </message>
    <message>
        <source>Time limit</source>
        <translation>时间限制</translation>
    </message>
    <message>
        <source>Stop a run after this many seconds:</source>
        <translation>运行超过此秒数后停止：</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Stop S&amp;weep</source>
        <translation>停止扫描(&amp;W)</translation>
    </message>
    <message>
        <source>Check Bounds on the CPU</source>
        <translation>在 CPU 上检查越界</translation>
    </message>
    <message>
        <source>Show Compiled &amp;Code</source>
        <translation>显示编译后的代码(&amp;C)</translation>
    </message>
    <message>
        <source>The PTX and SASS the kernel compiles to, with each kernel&apos;s registers and spills (F7)</source>
        <translation>内核编译生成的 PTX 和 SASS，以及每个内核的寄存器和溢出 (F7)</translation>
    </message>
</context>
<context>
    <name>RunController</name>
    <message>
        <source>The playground</source>
        <translation>此演练场</translation>
    </message>
    <message>
        <source>No __global__ function in the text yet.</source>
        <translation>文本中尚无 __global__ 函数。</translation>
    </message>
    <message>
        <source>The playground runs &quot;%1&quot;, which the text no longer declares (it declares %2).</source>
        <translation>演练场运行的是“%1”，但文本中已不再声明它（声明的是 %2）。</translation>
    </message>
    <message>
        <source>Compiling...</source>
        <translation>正在编译...</translation>
    </message>
    <message>
        <source>Compiled</source>
        <translation>已编译</translation>
    </message>
    <message>
        <source>Running on %1...</source>
        <translation>正在 %1 上运行...</translation>
    </message>
    <message>
        <source>Stopping...</source>
        <translation>正在停止...</translation>
    </message>
    <message>
        <source>Run failed</source>
        <translation>运行失败</translation>
    </message>
    <message>
        <source>check passed</source>
        <translation>校验通过</translation>
    </message>
    <message>
        <source>not checked: %1</source>
        <translation>未校验：%1</translation>
    </message>
    <message>
        <source>Ran in %1 s, %2</source>
        <translation>运行用时 %1 s，%2</translation>
    </message>
    <message>
        <source>not checked</source>
        <translation>未校验</translation>
    </message>
    <message>
        <source>Sweep of %1: %2 from %3 to %4 on %5</source>
        <translation>扫描 %1：%2 从 %3 到 %4，后端 %5</translation>
    </message>
    <message>
        <source>Not swept: the kernel does not compile (see Problems).</source>
        <translation>未扫描：内核无法编译（请查看“问题”）。</translation>
    </message>
    <message>
        <source>Sweep: %1</source>
        <translation>扫描：%1</translation>
    </message>
    <message>
        <source>No sandbox on this machine</source>
        <translation>本机没有沙箱</translation>
    </message>
    <message>
        <source>%1 did not run: %2

Run it anyway, with access to your files and the network?</source>
        <translation>%1 未运行：%2

仍要运行它吗？它将能访问您的文件和网络。</translation>
    </message>
    <message>
        <source>Run Anyway</source>
        <translation>仍然运行</translation>
    </message>
    <message>
        <source>Always Run This File</source>
        <translation>始终运行此文件</translation>
    </message>
    <message>
        <source>Not run without the sandbox, as you chose.</source>
        <translation>已按您的选择，未在没有沙箱的情况下运行。</translation>
    </message>
    <message>
        <source>Ran</source>
        <translation>已运行</translation>
    </message>
    <message>
        <source>The playground cannot run</source>
        <translation>演练场无法运行</translation>
    </message>
    <message>
        <source>The arguments or the launch do not fit the kernel</source>
        <translation>参数或启动配置与内核不匹配</translation>
    </message>
    <message>
        <source>The kernel did not compile</source>
        <translation>内核未能编译</translation>
    </message>
    <message>
        <source>The kernel crashed</source>
        <translation>内核崩溃</translation>
    </message>
    <message>
        <source>Stopped at the time limit</source>
        <translation>已达到时间限制，运行被停止</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>Out of memory</source>
        <translation>内存不足</translation>
    </message>
    <message>
        <source>Not run without a sandbox</source>
        <translation>未在没有沙箱的情况下运行</translation>
    </message>
    <message>
        <source>Does not compile: 1 error (see Problems)</source>
        <translation>无法编译：1 个错误（请查看“问题”）</translation>
    </message>
    <message>
        <source>Does not compile: %L1 errors (see Problems)</source>
        <translation>无法编译：%L1 个错误（请查看“问题”）</translation>
    </message>
    <message>
        <source>Compiled, with 1 warning (see Problems)</source>
        <translation>已编译，有 1 个警告（请查看“问题”）</translation>
    </message>
    <message>
        <source>Compiled, with %L1 warnings (see Problems)</source>
        <translation>已编译，有 %L1 个警告（请查看“问题”）</translation>
    </message>
    <message>
        <source>%1 (see Problems for every error).</source>
        <translation>%1（全部错误请查看“问题”）。</translation>
    </message>
    <message>
        <source>see Problems for why.</source>
        <translation>原因请查看“问题”。</translation>
    </message>
    <message>
        <source>Running the program on %1; timed runs: %2</source>
        <translation>正在 %1 上运行程序；计时运行次数：%2</translation>
    </message>
    <message>
        <source>Running %1 on %2, %3; timed runs: %4</source>
        <translation>正在 %2 上运行 %1，%3；计时运行次数：%4</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>The kernel failed while running</source>
        <translation>内核在运行时失败</translation>
    </message>
    <message>
        <source>CUDA or Kernelpad reported an error</source>
        <translation>CUDA 或 Kernelpad 报告了错误</translation>
    </message>
    <message>
        <source>not checked: this playground has no reference function, so a run on the CPU has nothing to compare with</source>
        <translation>未校验：此演练场没有参考函数，因此在 CPU 上的运行没有可比较的对象</translation>
    </message>
    <message>
        <source>check failed: the outputs differ (see Results)</source>
        <translation>校验失败：输出不一致（请查看“结果”）</translation>
    </message>
    <message>
        <source>the kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>the program</source>
        <translation>程序</translation>
    </message>
    <message>
        <source>%1: %2 took %3 (1 timed run), %4. %5</source>
        <translation>%1：%2 用时 %3（1 次计时运行），%4。%5</translation>
    </message>
    <message>
        <source>%1: %2 took %3 (median of %L4 timed runs), %5. %6</source>
        <translation>%1：%2 用时 %3（%L4 次计时运行的中位数），%5。%6</translation>
    </message>
    <message>
        <source>Sweep finished: 1 measurement in %1 s</source>
        <translation>扫描完成：1 次测量，用时 %1 s</translation>
    </message>
    <message>
        <source>Sweep finished: %L1 measurements in %2 s</source>
        <translation>扫描完成：%L1 次测量，用时 %2 s</translation>
    </message>
</context>
<context>
    <name>SamplesBrowser</name>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>%1 (has a problem)</source>
        <translation>%1（有问题）</translation>
    </message>
    <message>
        <source>Choose a sample to read what it shows; open it to run it and read its lesson.</source>
        <translation>选择一个示例以查看它演示的内容；打开它即可运行并阅读其课程。</translation>
    </message>
</context>
<context>
    <name>ScreenshotTour</name>
    <message>
        <source>cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation>无法创建 %1</translation>
    </message>
    <message>
        <source>the sample did not start</source>
        <translation>示例未能启动</translation>
    </message>
    <message>
        <source>the sample&apos;s run failed</source>
        <translation>示例运行失败</translation>
    </message>
    <message>
        <source>the sweep did not start: %1</source>
        <translation>扫描未能启动：%1</translation>
    </message>
    <message>
        <source>the sample&apos;s sweep failed: %1</source>
        <translation>示例的扫描失败：%1</translation>
    </message>
    <message>
        <source>cannot open %1</source>
        <translation>无法打开 %1</translation>
    </message>
</context>
<context>
    <name>StudentWords</name>
    <message>
        <source>argument %1</source>
        <translation>参数 %1</translation>
    </message>
    <message>
        <source>grid %1</source>
        <translation>网格 %1</translation>
    </message>
    <message>
        <source>block %1</source>
        <translation>线程块 %1</translation>
    </message>
    <message>
        <source>template argument %1</source>
        <translation>模板参数 %1</translation>
    </message>
    <message>
        <source>value %1</source>
        <translation>值 %1</translation>
    </message>
    <message>
        <source>shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>first buffer</source>
        <translation>第一个缓冲区</translation>
    </message>
    <message>
        <source>second buffer</source>
        <translation>第二个缓冲区</translation>
    </message>
    <message>
        <source>shared memory</source>
        <translation>共享内存</translation>
    </message>
    <message>
        <source>line \1, column \2</source>
        <translation>第 \1 行，第 \2 列</translation>
    </message>
    <message>
        <source>line \1</source>
        <translation>第 \1 行</translation>
    </message>
    <message>
        <source>the code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>步骤 %1</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>步骤 %1</translation>
    </message>
    <message>
        <source>Buffer %1</source>
        <translation>缓冲区 %1</translation>
    </message>
    <message>
        <source>Variable \1</source>
        <translation>变量 \1</translation>
    </message>
    <message>
        <source>Block: </source>
        <translation>线程块: </translation>
    </message>
    <message>
        <source>Grid: </source>
        <translation>网格: </translation>
    </message>
    <message>
        <source>Dynamic shared memory: </source>
        <translation>动态共享内存: </translation>
    </message>
    <message>
        <source>Argument \1: </source>
        <translation>参数 \1: </translation>
    </message>
    <message>
        <source>Argument %1: </source>
        <translation>参数 %1: </translation>
    </message>
</context>
<context>
    <name>SweepPlots</name>
    <message>
        <source>elements per second</source>
        <translation>每秒元素数</translation>
    </message>
    <message>
        <source>GB/s (every array copied in and out once)</source>
        <translation>GB/s（每个数组拷入、拷出各一次）</translation>
    </message>
    <message>
        <source>Throughput as elements per second, or as the bytes the kernel must at least move</source>
        <translation>以每秒元素数或内核至少需要搬运的字节数表示的吞吐量</translation>
    </message>
    <message>
        <source>The point of the sweep each backend is placed at on the roofline</source>
        <translation>每个后端在 Roofline 图上所取的扫描点</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>Point</source>
        <translation>点</translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation>Roofline</translation>
    </message>
    <message>
        <source>arithmetic intensity (FLOP/byte)</source>
        <translation>算术强度 (FLOP/byte)</translation>
    </message>
    <message>
        <source>GFLOP/s</source>
        <translation>GFLOP/s</translation>
    </message>
    <message>
        <source>the kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Kernel time</source>
        <translation>内核时间</translation>
    </message>
    <message>
        <source>Time of %1 against the %2</source>
        <translation>%1 的时间与 %2 的关系</translation>
    </message>
    <message>
        <source>Run a sweep to see the kernel time against the problem or block size.</source>
        <translation>运行扫描，查看内核时间随问题规模或线程块大小的变化。</translation>
    </message>
    <message>
        <source>No point of this sweep ran: there is no time to show.</source>
        <translation>此次扫描没有任何点运行：没有可显示的时间。</translation>
    </message>
    <message>
        <source>A block-size sweep: compare each backend&apos;s line with itself; the fastest block is its lowest point.</source>
        <translation>线程块大小扫描：请将每个后端的曲线与其自身比较；最低点即最快的线程块大小。</translation>
    </message>
    <message>
        <source>Sweep a CUDA backend and a CPU backend (or the reference) to see where the GPU starts to win.</source>
        <translation>同时扫描一个 CUDA 后端和一个 CPU 后端（或参考实现），查看 GPU 从何处开始胜出。</translation>
    </message>
    <message>
        <source>Throughput of %1 against the %2</source>
        <translation>%1 的吞吐量与 %2 的关系</translation>
    </message>
    <message>
        <source>GB/s over the kernel time</source>
        <translation>GB/s（按内核时间计）</translation>
    </message>
    <message>
        <source>elements per second over the kernel time</source>
        <translation>每秒元素数（按内核时间计）</translation>
    </message>
    <message>
        <source>Run a sweep to see the throughput against the problem or block size.</source>
        <translation>运行扫描，查看吞吐量随问题规模或线程块大小的变化。</translation>
    </message>
    <message>
        <source>No point of this sweep ran: there is no throughput to show.</source>
        <translation>此次扫描没有任何点运行：没有可显示的吞吐量。</translation>
    </message>
    <message>
        <source>Roofline of %1, each backend at its largest point that ran</source>
        <translation>%1 的 Roofline 图，每个后端取其运行过的最大点</translation>
    </message>
    <message>
        <source>Roofline of %1 at %2 %3</source>
        <translation>%1 在 %2 %3 处的 Roofline 图</translation>
    </message>
    <message>
        <source>Run a sweep to see the kernel on the roofline.</source>
        <translation>运行扫描，查看内核在 Roofline 图上的位置。</translation>
    </message>
    <message>
        <source>Give the kernel&apos;s floating-point operations as a formula of n (the FLOPs field)
to place it on the roofline.</source>
        <translation>请以 n 的公式给出内核的浮点运算次数（FLOPs 字段），
以便将其放到 Roofline 图上。</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>No point with a FLOP count and a byte count ran: there is nothing to place on the roofline.</source>
        <translation>没有运行过同时具有 FLOP 数和字节数的点：没有可放到 Roofline 图上的内容。</translation>
    </message>
    <message>
        <source>%1 roof: %2 GB/s, %3 GFLOP/s</source>
        <translation>%1 上限：%2 GB/s，%3 GFLOP/s</translation>
    </message>
    <message>
        <source>ridge at %1 FLOP/byte
memory-bound ←   → compute-bound</source>
        <translation>拐点 %1 FLOP/byte
受内存限制 ←   → 受计算限制</translation>
    </message>
    <message>
        <source>largest point that ran</source>
        <translation>运行过的最大点</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Nothing to export yet: run a sweep first.</source>
        <translation>尚无可导出的内容：请先运行扫描。</translation>
    </message>
    <message>
        <source>Kernelpad sweep of %1</source>
        <translation>Kernelpad 对 %1 的扫描</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>kernel time</source>
        <translation>内核时间</translation>
    </message>
    <message>
        <source>No GPU took part: these are the CPU backend (the kernel&apos;s threads on this machine&apos;s cores) and the C++ reference. They show how the work grows with the size and what more cores give, not how fast a GPU is. For GPU times, run this playground on a machine with an NVIDIA GPU: open it in Kernelpad there, or run
kernelpad-cli sweep %1 --json sweep.json</source>
        <translation>没有 GPU 参与：这些曲线是 CPU 后端（内核的线程运行在本机的各个核心上）和 C++ 参考实现。它们显示的是耗时如何随规模增长、更多核心能带来多少提升，而不是 GPU 有多快。要获得 GPU 计时，请在装有 NVIDIA GPU 的机器上运行此演练场：在那台机器上用 Kernelpad 打开它，或运行
kernelpad-cli sweep %1 --json sweep.json</translation>
    </message>
    <message>
        <source>&lt;playground&gt;</source>
        <translation>&lt;playground&gt;</translation>
    </message>
    <message>
        <source>No roof: a roof is a processor&apos;s peak bandwidth and FLOP/s, which the CUDA driver gives
for a GPU. Kernelpad does not measure this CPU&apos;s; its points show what the kernel reached.</source>
        <translation>没有上限：上限是处理器的峰值带宽和 FLOP/s，GPU 的这些数值由 CUDA 驱动程序提供。
Kernelpad 不测量此 CPU 的上限；图中的点显示的是内核实际达到的性能。</translation>
    </message>
</context>
<context>
    <name>SweepView</name>
    <message>
        <source>Problem size (elements)</source>
        <translation>问题规模（元素数）</translation>
    </message>
    <message>
        <source>Block size (blockDim.x)</source>
        <translation>线程块大小 (blockDim.x)</translation>
    </message>
    <message>
        <source>Log steps</source>
        <translation>对数步长</translation>
    </message>
    <message>
        <source>Linear steps</source>
        <translation>线性步长</translation>
    </message>
    <message>
        <source>A whole number: 1000, 1,000,000, 1e6, 10k or 2.5M</source>
        <translation>一个整数：1000、1,000,000、1e6、10k 或 2.5M</translation>
    </message>
    <message>
        <source>Timed runs per point and backend; the plots show their median and spread</source>
        <translation>每个点、每个后端的计时运行次数；图表显示其中位数和离散范围</translation>
    </message>
    <message>
        <source>e.g. n, or 2*n^1.5</source>
        <translation>例如 n 或 2*n^1.5</translation>
    </message>
    <message>
        <source>Floating-point operations of one launch as a formula of n, the swept array&apos;s elements: what places the kernel on the roofline</source>
        <translation>一次启动的浮点运算次数，以 n（被扫描数组的元素数）的公式表示：用于将内核放到 Roofline 图上</translation>
    </message>
    <message>
        <source>Run Sweep</source>
        <translation>运行扫描</translation>
    </message>
    <message>
        <source>Export Plot...</source>
        <translation>导出图表...</translation>
    </message>
    <message>
        <source>Export CSV...</source>
        <translation>导出 CSV...</translation>
    </message>
    <message>
        <source>%v of %m</source>
        <translation>%v / %m</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>From</source>
        <translation>从</translation>
    </message>
    <message>
        <source>To</source>
        <translation>到</translation>
    </message>
    <message>
        <source>Points</source>
        <translation>点数</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步长</translation>
    </message>
    <message>
        <source>Repeats</source>
        <translation>重复次数</translation>
    </message>
    <message>
        <source>FLOPs</source>
        <translation>FLOPs</translation>
    </message>
    <message>
        <source>Backends</source>
        <translation>后端</translation>
    </message>
    <message>
        <source>From: &quot;%1&quot; is not a number (write 1000, 1e6 or 10k)</source>
        <translation>从：“%1”不是数字（请写 1000、1e6 或 10k）</translation>
    </message>
    <message>
        <source>To: &quot;%1&quot; is not a number (write 1000, 1e6 or 10k)</source>
        <translation>到：“%1”不是数字（请写 1000、1e6 或 10k）</translation>
    </message>
    <message>
        <source>Backends: tick at least one</source>
        <translation>后端：请至少勾选一个</translation>
    </message>
    <message>
        <source>%1 at %2: </source>
        <translation>%1 在 %2：</translation>
    </message>
    <message>
        <source>, %1 failed or did not run (see the CSV&apos;s error and check columns)</source>
        <translation>，%1 个失败或未运行（请查看 CSV 的 error 和 check 列）</translation>
    </message>
    <message>
        <source>Stop Sweep</source>
        <translation>停止扫描</translation>
    </message>
    <message>
        <source>Choose a range and the backends, then Run Sweep: the same kernel at every size, on each backend.</source>
        <translation>选择范围和后端，然后点击“运行扫描”：在每个后端上以每种规模运行同一个内核。</translation>
    </message>
    <message>
        <source>Export Plot</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>Pictures (*.png *.svg *.pdf)</source>
        <translation>图像 (*.png *.svg *.pdf)</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <source>Export CSV</source>
        <translation>导出 CSV</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>CPU backend, all cores</source>
        <translation>CPU 后端，全部核心</translation>
    </message>
    <message>
        <source>CPU backend, one core</source>
        <translation>CPU 后端，单个核心</translation>
    </message>
    <message>
        <source>C++ reference</source>
        <translation>C++ 参考实现</translation>
    </message>
    <message>
        <source>1 measurement</source>
        <translation>1 次测量</translation>
    </message>
    <message>
        <source>%L1 measurements</source>
        <translation>%L1 次测量</translation>
    </message>
    <message>
        <source>Sweeping: 1 measurement...</source>
        <translation>正在扫描：1 次测量...</translation>
    </message>
    <message>
        <source>Sweeping: %L1 measurements (every point on every backend)...</source>
        <translation>正在扫描：%L1 次测量（每个点在每个后端上各一次）...</translation>
    </message>
    <message>
        <source>The sweep saved with this playground was stopped before its end: %1</source>
        <translation>此演练场保存的扫描在结束前被停止：%1</translation>
    </message>
    <message>
        <source>The sweep saved with this playground: %1</source>
        <translation>此演练场保存的扫描：%1</translation>
    </message>
</context>
<context>
    <name>ThemeMenu</name>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
</context>
<context>
    <name>TimingHistoryModel</name>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>后端</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>Kernel time</source>
        <translation>内核时间</translation>
    </message>
    <message>
        <source>Total time</source>
        <translation>总时间</translation>
    </message>
    <message>
        <source>1 timed run</source>
        <translation>1 次计时运行</translation>
    </message>
    <message>
        <source>Median of %L1 timed runs, from %2 to %3</source>
        <translation>%L1 次计时运行的中位数，%2 至 %3</translation>
    </message>
</context>
<context>
    <name>TimingsView</name>
    <message>
        <source>Log scale</source>
        <translation>对数刻度</translation>
    </message>
    <message>
        <source>Clear history</source>
        <translation>清除历史</translation>
    </message>
    <message>
        <source>No runs yet: the timings of each run appear here.</source>
        <translation>尚无运行：每次运行的计时都会显示在这里。</translation>
    </message>
    <message>
        <source>run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Show the bars on a logarithmic scale, for phases that differ by orders of magnitude</source>
        <translation>以对数刻度显示柱条，适用于相差几个数量级的阶段</translation>
    </message>
    <message>
        <source>The kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source> (median of %1 repeats, %2 to %3)</source>
        <translation>（%1 次重复的中位数，%2 至 %3）</translation>
    </message>
    <message>
        <source>No timed repeat finished, so there is no kernel time to show.</source>
        <translation>没有完成任何计时重复，因此没有可显示的内核时间。</translation>
    </message>
    <message>
        <source>Against the previous run of %1: %2</source>
        <translation>与 %1 的上一次运行相比：%2</translation>
    </message>
    <message>
        <source>The timings of this run cannot be shown: %1
The history keeps the earlier runs.</source>
        <translation>无法显示本次运行的计时：%1
历史记录中保留了之前的运行。</translation>
    </message>
    <message>
        <source> spread</source>
        <translation> 离散范围</translation>
    </message>
    <message>
        <source>kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1 在 %2 上</translation>
    </message>
    <message>
        <source>Kernelpad timings</source>
        <translation>Kernelpad 计时</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>time: bar at the median, whiskers from the fastest to the slowest repeat</source>
        <translation>时间：柱表示中位数，须线从最快一次延伸到最慢一次</translation>
    </message>
    <message>
        <source>kernel time (median)</source>
        <translation>内核时间（中位数）</translation>
    </message>
    <message>
        <source>%1 on %2: kernel %3</source>
        <translation>%1 在 %2 上：内核 %3</translation>
    </message>
    <message>
        <source>, %1 with the copies</source>
        <translation>，含拷贝 %1</translation>
    </message>
    <message>
        <source>%1  (%2 to %3, %4 repeats)</source>
        <translation>%1（%2 至 %3，%4 次重复）</translation>
    </message>
    <message>
        <source>The program&apos;s steps</source>
        <translation>程序的各个步骤</translation>
    </message>
    <message>
        <source>time in one run of the program (median): a loop is its steps together</source>
        <translation>程序单次运行中的时间（中位数）：循环的时间为其各步骤之和</translation>
    </message>
    <message>
        <source>The program</source>
        <translation>程序</translation>
    </message>
    <message>
        <source>a program of 1 launch</source>
        <translation>含 1 次启动的程序</translation>
    </message>
    <message>
        <source>a program of %L1 launches</source>
        <translation>含 %L1 次启动的程序</translation>
    </message>
    <message>
        <source>1 launch</source>
        <translation>1 次启动</translation>
    </message>
    <message>
        <source>%L1 launches</source>
        <translation>%L1 次启动</translation>
    </message>
    <message>
        <source>%1 on %2: %3 in %4</source>
        <translation>%1 在 %2 上：%3，用时 %4</translation>
    </message>
    <message>
        <source>, %L1 passes</source>
        <translation>，%L1 轮</translation>
    </message>
    <message>
        <source>, ×%L1</source>
        <translation>，×%L1</translation>
    </message>
    <message>
        <source>Stopped after 1 timed run.</source>
        <translation>已在 1 次计时运行后停止。</translation>
    </message>
    <message>
        <source>Stopped after %L1 timed runs.</source>
        <translation>已在 %L1 次计时运行后停止。</translation>
    </message>
</context>
</TS>
